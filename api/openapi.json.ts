import { endpoint, route } from '../lib/service-route.js';
import { getOpenApiDocument } from '../lib/openapi/handlers.js';

export default route({
  GET: endpoint('public', {}, getOpenApiDocument),
});
