import { endpoint, route } from '../lib/service-route.js';
import { serveOpenApiDocument } from '../lib/openapi/handlers.js';
import { ROUTE_MODULES } from './_route-modules.js';

export default route({
  GET: endpoint('public', {}, serveOpenApiDocument(ROUTE_MODULES)),
});
