import type { IncomingMessage } from 'node:http';
import { config } from '../config.js';

/** The connection's address, or the first X-Forwarded-For entry where a proxy is trusted (D30). */
export function clientAddress(req: IncomingMessage): string {
  if (config().trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? 'unknown';
}
