import { answers } from '../http/success-answer.js';

/**
 * `GET /api/openapi.json` as it declares itself: its function (api/openapi.json.ts) spreads this into
 * its endpoint, and the document, which that function imports, describes itself from it.
 */
export const OPENAPI_DOCUMENT_OPERATION = {
  summary: 'This OpenAPI document',
  access: 'public',
  answer: answers.document,
} as const;
