import { endpoint, route } from '../lib/http/route.js';
import { getOpenApiDocument } from '../lib/openapi/handlers.js';

export default route({
  GET: endpoint('public', {}, getOpenApiDocument),
});
