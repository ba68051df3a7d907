import { OPENAPI_DOCUMENT_OPERATION } from '../lib/openapi/document-operation.js';
import { serveOpenApiDocument } from '../lib/openapi/handlers.js';
import { endpoint, route } from '../lib/service-route.js';
import { ROUTE_MODULES } from './_route-modules.js';

export default route({
  GET: endpoint({ ...OPENAPI_DOCUMENT_OPERATION, handle: serveOpenApiDocument(ROUTE_MODULES) }),
});
