import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { ROUTE_MODULES } from '../api/_route-modules.js';
import { openApiDocument } from '../lib/openapi/document.js';

/** The committed client types, generated from the OpenAPI document (`npm run api:types`). */
export const API_TYPES_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../types/api.d.ts');

const HEADER = '/**\n * The API\'s types for clients, generated from its OpenAPI document by `npm run api:types`: do not edit.\n */\n\n';

/** The text of the client types for the document this build serves. */
export async function apiTypesSource(): Promise<string> {
  const document = await openApiDocument(ROUTE_MODULES);
  return HEADER + astToString(await openapiTS(document as unknown as Parameters<typeof openapiTS>[0]));
}
