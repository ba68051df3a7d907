import { raw, type Reply } from '../http/reply.js';
import { openApiDocument, type OpenApiDocument } from './document.js';
import type { RouteModules } from './route-modules.js';

/**
 * `GET /api/openapi.json`: the document of the functions `routeModules` lists, outside the
 * envelope, as OpenAPI tools expect. The function passes its own folder's list
 * (api/_route-modules.ts): a library never loads a function module itself.
 */
export function serveOpenApiDocument(routeModules: RouteModules): () => Promise<Reply<OpenApiDocument>> {
  return async () => raw(await openApiDocument(routeModules));
}
