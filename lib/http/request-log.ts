import { log } from '../log.js';
import type { IncomingRequest } from './incoming-request.js';

/** A caller's own request id, logged beside the service's (never in its place), when it is a sane token. */
function clientRequestIdOf(request: IncomingRequest): string | undefined {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && /^[\w.-]{8,128}$/.test(incoming) ? incoming : undefined;
}

/** One log line per request. */
export function logRequest(request: IncomingRequest, requestId: string, url: URL, status: number, started: number, userId: string | undefined): void {
  log.info('request', {
    requestId,
    clientRequestId: clientRequestIdOf(request),
    method: request.method.toUpperCase(),
    path: url.pathname,
    status,
    durationMs: Math.round(performance.now() - started),
    userId,
  });
}
