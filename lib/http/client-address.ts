import { config } from '../config.js';
import type { IncomingRequest } from './incoming-request.js';

function headerValues(request: IncomingRequest, name: string): string[] {
  const value = request.headers[name];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value])
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * The address rate limits count by: on Vercel, the platform's own client-IP header, which a
 * client cannot set. Behind `TRUST_PROXY=N` proxies, each of which appends the address it received
 * the request from to X-Forwarded-For, the entry the outermost one appended: the N-th from the
 * right (anything left of it was written by the client). Otherwise the connection's peer.
 */
export function clientAddress(request: IncomingRequest): string {
  const cfg = config();
  if (cfg.onVercel) {
    const [platformSeen] = headerValues(request, 'x-real-ip');
    if (platformSeen) return platformSeen;
  }
  if (cfg.trustedProxyHops > 0) {
    const forwarded = headerValues(request, 'x-forwarded-for');
    const appendedByOutermost = forwarded[forwarded.length - cfg.trustedProxyHops];
    if (appendedByOutermost) return appendedByOutermost;
  }
  return request.remoteAddress ?? 'unknown';
}
