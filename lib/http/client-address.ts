import { config } from '../config.js';
import type { IncomingRequest } from './incoming-request.js';

/** The connection's address, or the first X-Forwarded-For entry where a proxy is trusted (D30). */
export function clientAddress(request: IncomingRequest): string {
  if (config().trustProxy) {
    const forwarded = request.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return request.remoteAddress ?? 'unknown';
}
