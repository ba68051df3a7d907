import type http from 'node:http';

/**
 * How long a served connection may sit idle before the server closes it: longer than a client or a
 * proxy in front keeps one for reuse (fetch keeps one 4 s, load balancers commonly 60 s), so the
 * server never closes a connection just as a request is sent on it, which the client sees as a
 * dropped request.
 */
const IDLE_CONNECTION_MS = 65_000;

/** Lets `server` keep idle connections open for IDLE_CONNECTION_MS. */
export function keepIdleConnections(server: http.Server): http.Server {
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  // Node requires the wait for a request's headers to exceed the idle wait.
  server.headersTimeout = IDLE_CONNECTION_MS + 1_000;
  return server;
}
