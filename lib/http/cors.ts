import { config } from '../config.js';
import type { IncomingRequest } from './incoming-request.js';

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Request-Id, Idempotency-Key';

/** CORS headers for an allowed origin; other origins get none, so browsers refuse the response. */
export function corsHeaders(request: IncomingRequest): Record<string, string> {
  const origin = request.headers.origin;
  if (!origin || !config().allowedOrigins.includes(origin)) return { Vary: 'Origin' };
  return {
    Vary: 'Origin',
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Expose-Headers': 'X-Request-Id, Retry-After, Idempotent-Replayed',
    // Lets the allowed origin's pages read Server-Timing (and full resource timings) from script.
    'Timing-Allow-Origin': origin,
  };
}

export const PREFLIGHT_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Methods': ALLOWED_METHODS,
  'Access-Control-Allow-Headers': ALLOWED_HEADERS,
  'Access-Control-Max-Age': '600',
};
