import crypto from 'node:crypto';
import { flushTelemetry, inSpan, telemetryEnabled } from '../telemetry.js';
import { callerOf, type AuthUser, type CallerChecks } from './access.js';
import { answerKeyOf, cachedResponse, readingResponse, sharedResponse } from './cacheable-answer.js';
import { corsHeaders, PREFLIGHT_HEADERS } from './cors.js';
import { defer } from './deferred-work.js';
import type { CacheTag } from './edge-cache.js';
import { HTTP_METHODS, type Endpoint, type HttpMethod, type RequestContext, type RouteTable } from './endpoint.js';
import { readInput } from './endpoint-input.js';
import { errorReply, methodNotAllowed } from './error-envelope.js';
import { discardBody, fromWebRequest, webResponse, type Connection, type IncomingRequest, type OutgoingResponse } from './incoming-request.js';
import { encode } from './outgoing-response.js';
import { clientAddress, clientNetwork } from './client-address.js';
import type { Reply } from './reply.js';
import { logRequest } from './request-log.js';
import { nameReadPlan, serverTimingHeader, timeRequest } from './request-timing.js';

/**
 * A function module's default export, in the Web signature: the platform invokes its `fetch`,
 * which gets none of the platform's Node request helpers, so a body is never read before the
 * wrapper reads it, whatever the project's settings. The local server invokes the same `fetch`
 * (lib/platform/web-adapter.ts), adding the connection's peer, which a self-hosted service counts
 * limits by.
 */
export interface RouteHandler {
  readonly endpoints: RouteTable;
  fetch: (request: Request, connection?: Connection) => Promise<Response>;
}

interface Outcome {
  reply: Reply;
  user: AuthUser | null;
  /** The tags of an answer the CDN may keep. */
  cacheTags?: readonly CacheTag[];
}

/** The steps of one endpoint: access, input, rate limits, then the handler, once per Idempotency-Key where it takes one. */
async function outcomeOf(endpoint: Endpoint, request: IncomingRequest, url: URL, requestId: string, checks: CallerChecks): Promise<Outcome> {
  await checks.beforeFirstAnswer();
  const user = await callerOf(endpoint.access, request, checks);
  const input = await readInput(endpoint.schemas, request, url);
  const clientIp = clientAddress(request);
  const ctx: RequestContext = { request, user, requestId, clientIp, clientNetwork: clientNetwork(clientIp) };
  const cacheTags = endpoint.edgeCache?.tags(input);
  await endpoint.rateLimit?.beforeHandler?.(input, ctx);
  const header = request.headers['idempotency-key'];
  if (!endpoint.idempotent || header === undefined) return { reply: await endpoint.handle(input, ctx), user, cacheTags };
  // Loaded only by a creating request that carries a key.
  const { answerOnce } = await import('./idempotency.js');
  const keyed = {
    header,
    scope: user?.id ?? `address:${ctx.clientIp}`,
    route: `${request.method.toUpperCase()} ${url.pathname}`,
    asks: { query: url.search, body: input.body, files: input.files },
    clientNetwork: ctx.clientNetwork,
  };
  const secretBearing = endpoint.idempotent === true ? undefined : endpoint.idempotent;
  const reply = await answerOnce(keyed, secretBearing, () => endpoint.handle(input, ctx).catch((error: unknown) => errorReply(error, requestId)));
  return { reply, user };
}

async function answer(table: RouteTable, allowed: string, request: IncomingRequest, checks: CallerChecks): Promise<OutgoingResponse> {
  const started = performance.now();
  const requestId = crypto.randomUUID();
  const headers: Record<string, string> = { 'X-Request-Id': requestId, 'X-Content-Type-Options': 'nosniff', ...corsHeaders(request) };
  const method = request.method.toUpperCase();
  const url = new URL(request.url, 'http://localhost');
  const ifNoneMatch = request.headers['if-none-match'];
  let readOver: (() => void) | undefined;
  try {
    if (method === 'OPTIONS' && !table.OPTIONS) return { status: 204, headers: { ...headers, ...PREFLIGHT_HEADERS }, body: null };
    const endpoint = method === 'OPTIONS' ? table.OPTIONS : table[(method === 'HEAD' ? 'GET' : method) as HttpMethod];
    const answerKey = endpoint?.edgeCache ? answerKeyOf(endpoint.schemas, url) : undefined;
    const cached = answerKey === undefined ? undefined : (cachedResponse(answerKey, headers, ifNoneMatch) ?? (await sharedResponse(answerKey, headers, ifNoneMatch)));
    if (cached) {
      nameReadPlan('cached-answer');
      logRequest(request, requestId, url, cached.status, started, undefined);
      return cached;
    }
    readOver = answerKey === undefined ? undefined : readingResponse(answerKey);
    const outcome: Outcome = endpoint
      ? await outcomeOf(endpoint, request, url, requestId, checks).catch((error: unknown) => ({ reply: errorReply(error, requestId), user: null }))
      : { reply: methodNotAllowed(method, allowed), user: null };
    const cacheable = outcome.cacheTags && answerKey !== undefined ? { key: answerKey, tags: outcome.cacheTags, ifNoneMatch } : undefined;
    const response = encode(outcome.reply, headers, cacheable);
    logRequest(request, requestId, url, response.status, started, outcome.user?.id);
    return response;
  } finally {
    // The requests that waited for this answer are given it, or read their own.
    readOver?.();
    // Whatever of the body no step read, so the connection can be reused.
    discardBody(request);
  }
}

/** Every answer says where its time went: `Server-Timing` with the database's share and the total. */
function timedAnswer(table: RouteTable, allowed: string, request: IncomingRequest, checks: CallerChecks): Promise<OutgoingResponse> {
  return timeRequest(async (timing) => {
    const response = await answer(table, allowed, request, checks);
    response.headers['Server-Timing'] = serverTimingHeader(timing);
    return response;
  });
}

/**
 * With telemetry on, the request is a span, the parent of its statements' and Bot API calls' spans,
 * and a child of the caller's when the request carries a `traceparent`.
 */
async function respond(table: RouteTable, allowed: string, request: IncomingRequest, checks: CallerChecks): Promise<OutgoingResponse> {
  if (!telemetryEnabled()) return timedAnswer(table, allowed, request, checks);
  const method = request.method.toUpperCase();
  const path = new URL(request.url, 'http://localhost').pathname;
  const response = await inSpan(`${method} ${path}`, { 'http.request.method': method, 'url.path': path }, async (notes) => {
    const timed = await timedAnswer(table, allowed, request, checks);
    notes.set({ 'http.response.status_code': timed.status, 'http.request.id': timed.headers['X-Request-Id'] ?? '' });
    return timed;
  }, request.headers);
  void defer('telemetry export', flushTelemetry);
  return response;
}

/**
 * The route wrapper, given how callers are checked: method dispatch, CORS, an answer this instance
 * keeps, then access, input, idempotency and the handler, the envelope (errors in errorReply()) and
 * one log line per request.
 */
export function routeWith(checks: CallerChecks): (table: RouteTable) => RouteHandler {
  return (table) => {
    const allowed = [...HTTP_METHODS.filter((method) => table[method]), 'OPTIONS'].join(', ');
    const fetch = async (request: Request, connection?: Connection): Promise<Response> =>
      webResponse(request.method, await respond(table, allowed, fromWebRequest(request, connection), checks));
    return { endpoints: table, fetch };
  };
}
