import { isIPv6 } from 'node:net';
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

/** The first four groups of an IPv6 address, written out in full (`2001:db8:0:1`), or undefined for anything else. */
function ipv6Prefix64(address: string): string | undefined {
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const missing = 8 - front.length - back.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  const full = [...front, ...Array<string>(missing).fill('0'), ...back];
  return full.slice(0, 4).map((group) => group.toLowerCase().replace(/^0+(?=.)/, '')).join(':');
}

/**
 * The network a client address counts as for limits and sign-in lanes. One IPv6 host usually holds
 * a whole /64 (2^64 addresses), so an IPv6 address counts by its /64 (`2001:db8:0:1::/64`); an IPv4
 * address, also when written as IPv6 (`::ffff:192.0.2.1`), counts alone.
 */
export function clientNetwork(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv6(address)) return `${ipv6Prefix64(address.split('%')[0]!) ?? address}::/64`;
  return address;
}
