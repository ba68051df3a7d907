import { raw, type Reply } from '../http/reply.js';
import { openApiDocument } from './document.js';

/** `GET /api/openapi.json`: the document itself, outside the envelope, as OpenAPI tools expect. */
export async function getOpenApiDocument(): Promise<Reply> {
  return raw(await openApiDocument());
}
