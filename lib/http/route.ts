import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthUser } from '../auth/authenticate.js';
import { config } from '../config.js';
import { log } from '../log.js';
import { flushTelemetry, inSpan, telemetryEnabled } from '../telemetry.js';
import { ApiError, errorEnvelope } from './api-error.js';
import { keepAnswer, keptAnswer, type KeptAnswer } from './answer-cache.js';
import { clientAddress } from './client-address.js';
import { corsHeaders, PREFLIGHT_HEADERS } from './cors.js';
import { databaseErrorToApiError } from './database-errors.js';
import { defer } from './deferred-work.js';
import { edgeCacheHeaders, type CacheTag } from './edge-cache.js';
import { entityTagOf, ifNoneMatchNames } from './entity-tag.js';
import { discardBody, fromNodeRequest, fromWebRequest, type IncomingRequest } from './incoming-request.js';
import { readJsonBody } from './json-body.js';
import { nameReadPlan, serverTimingHeader, timeRequest } from './request-timing.js';
import { secretMatches } from './shared-secret.js';
import type { FormSpec, ParsedForm } from './multipart.js';
import type { Reply } from './reply.js';
import { validate, type AnySchema, type Output } from './validation.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Who may call an endpoint: anyone, any signed-in user, administrators only, or the platform's scheduler (bearer `CRON_SECRET`). */
export type Access = 'public' | 'token' | 'admin' | 'cron';

export interface RequestContext<A extends Access = Access> {
  request: IncomingRequest;
  user: A extends 'token' | 'admin' ? AuthUser : AuthUser | null;
  requestId: string;
  clientIp: string;
}

export interface Schemas {
  params?: AnySchema;
  query?: AnySchema;
  /** A JSON body. */
  body?: AnySchema;
  /** A multipart (or JSON) form: fields validated by `body`, files consumed by the spec. */
  form?: FormSpec<unknown>;
}

type FilesOf<S extends Schemas> = S['form'] extends FormSpec<infer T> ? ParsedForm<T>['files'] : [];

export interface Input<S extends Schemas> {
  params: Output<S['params']>;
  query: Output<S['query']>;
  body: Output<S['body']>;
  files: FilesOf<S>;
}

/**
 * A public answer the CDN may keep: a 200 goes out with `Cache-Control` for the CDN, an ETag
 * (a matching `If-None-Match` is answered 304) and the cache tags of what it shows, which the
 * writes that change it purge. Any other status stays `no-store`.
 */
interface EdgeCache<S extends Schemas = Schemas> {
  tags: (input: Input<S>) => readonly CacheTag[];
}

/**
 * An answer that carries a secret the request did not (a new account's token): what is kept of it
 * under an Idempotency-Key, without the secret, and how a replay of the kept answer is made whole
 * again with a freshly issued one.
 */
export interface SecretBearingAnswer {
  keep: (reply: Reply) => Reply;
  replay: (kept: Reply) => Promise<Reply>;
}

export interface EndpointOptions<S extends Schemas = Schemas> {
  /**
   * A creating request that honours `Idempotency-Key`: a retry with the key gets the first answer.
   * An answer that carries a secret says how it is kept and replayed without storing the secret.
   */
  idempotent?: true | SecretBearingAnswer;
  /**
   * Counts the request against its rate limits (throwing 429 when over), before its Idempotency-Key
   * is taken: a refused request leaves no key behind, and a flood of fresh keys writes nothing.
   */
  rateLimit?: (input: Input<S>, ctx: RequestContext) => Promise<void>;
  edgeCache?: EdgeCache<S>;
}

export interface Endpoint extends EndpointOptions {
  access: Access;
  schemas: Schemas;
  handle: (input: Input<Schemas>, ctx: RequestContext) => Promise<Reply>;
}

/** An endpoint whose answers the CDN may keep: a public one, and only as a GET (see RouteTable). */
type CachedEndpoint = Endpoint & { edgeCache: EdgeCache };
type UncachedEndpoint = Endpoint & { edgeCache?: undefined };

/** Declares one method of a route: its access, the schemas of its inputs, its handler and options. */
export function endpoint<S extends Schemas = Record<never, never>>(
  access: 'public',
  schemas: S,
  handle: (input: Input<S>, ctx: RequestContext<'public'>) => Promise<Reply>,
  options: EndpointOptions<S> & { edgeCache: EdgeCache<S> },
): CachedEndpoint;
export function endpoint<A extends Access, S extends Schemas = Record<never, never>>(
  access: A,
  schemas: S,
  handle: (input: Input<S>, ctx: RequestContext<A>) => Promise<Reply>,
  options?: Omit<EndpointOptions<S>, 'edgeCache'>,
): UncachedEndpoint;
export function endpoint<A extends Access, S extends Schemas>(
  access: A,
  schemas: S,
  handle: (input: Input<S>, ctx: RequestContext<A>) => Promise<Reply>,
  options: EndpointOptions<S> = {},
): Endpoint {
  return { access, schemas, handle: handle as unknown as Endpoint['handle'], ...(options as EndpointOptions) };
}

/** A function's methods: the CDN may keep the answers of GET (and HEAD) only. */
export type RouteTable = { GET?: Endpoint } & { [M in Exclude<HttpMethod, 'GET'>]?: UncachedEndpoint };

/** What the wrapper answers, before it is written to a Node response or a Web `Response`. */
interface OutgoingResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer | null;
}

/**
 * A function module's default export. Called as `(req, res)` by a Node server (the local server);
 * its `fetch` is the Web signature the platform invokes, which gets none of the platform's Node
 * request helpers, so a body is never read before the wrapper reads it, whatever the project's
 * settings.
 */
export type RouteHandler = ((req: IncomingMessage, res: ServerResponse) => Promise<void>) & {
  readonly endpoints: RouteTable;
  fetch: (request: Request) => Promise<Response>;
};

/** A caller's own request id, logged beside the service's (never in its place), when it is a sane token. */
function clientRequestIdOf(request: IncomingRequest): string | undefined {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && /^[\w.-]{8,128}$/.test(incoming) ? incoming : undefined;
}

/** Keys come from the caller: a prototype-free object, so `__proto__` and the like are plain keys. */
function queryObject(url: URL): Record<string, string | string[]> {
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

/** How the CDN may keep an answer: the tags of what it shows, and the validator the caller holds. */
interface Cacheable {
  tags: readonly CacheTag[];
  ifNoneMatch: string | undefined;
  /** Where the answer is kept in this instance (answer-cache.ts). */
  key: string;
}

function encode(reply: Reply, headers: Record<string, string>, cacheable: Cacheable | undefined): OutgoingResponse {
  Object.assign(headers, reply.headers);
  if (reply.contentType) {
    headers['Content-Type'] = reply.contentType;
    return { status: reply.status, headers, body: reply.body as string | Buffer };
  }
  const body = JSON.stringify(reply.body);
  if (!cacheable || reply.status !== 200) {
    headers['Content-Type'] = 'application/json; charset=utf-8';
    headers['Cache-Control'] = 'no-store';
    return { status: reply.status, headers, body };
  }
  const answer = { body, entityTag: entityTagOf(body), tags: cacheable.tags };
  keepAnswer(cacheable.key, answer, config().answerCacheMs);
  return cacheableResponse(answer, headers, cacheable.ifNoneMatch);
}

/** A cacheable answer's 200, or its 304 when the client already holds it. */
function cacheableResponse(answer: KeptAnswer, headers: Record<string, string>, ifNoneMatch: string | undefined): OutgoingResponse {
  Object.assign(headers, edgeCacheHeaders(answer.tags, answer.entityTag));
  // A 304 carries the validator and caching headers a 200 would, and no body or content headers.
  if (ifNoneMatchNames(ifNoneMatch, answer.entityTag)) return { status: 304, headers, body: null };
  headers['Content-Type'] = 'application/json; charset=utf-8';
  return { status: 200, headers, body: answer.body };
}

function errorReply(error: unknown, requestId: string): Reply {
  const apiError = error instanceof ApiError ? error : databaseErrorToApiError(error);
  if (apiError && apiError.status >= 500) log.warn('request failed on a dependency', { requestId, status: apiError.status, error });
  if (apiError) {
    const body = errorEnvelope(apiError);
    const headers = { ...apiError.headers };
    if (apiError.status === 503) headers['Retry-After'] ??= '5';
    return { status: apiError.status, body, headers };
  }
  log.error('unhandled error', { requestId, error });
  return { status: 500, body: errorEnvelope(new ApiError(500, 'Internal server error')) };
}

let bootstrap: Promise<void> | undefined;

/**
 * Makes sure the configured first administrator exists, once per instance (cold start). A failure
 * is logged and retried on the next request rather than failing this one.
 */
async function ensureBootstrap(): Promise<void> {
  if (!config().admin) return;
  bootstrap ??= import('../auth/bootstrap-admin.js')
    .then(({ ensureConfiguredAdmin }) => ensureConfiguredAdmin())
    .catch((error: unknown) => {
      bootstrap = undefined;
      log.error('could not ensure the configured administrator', { error });
    });
  await bootstrap;
}

/**
 * The scheduler's call (Vercel Cron sends `Authorization: Bearer <CRON_SECRET>`): any other caller
 * is refused, and without a secret configured nobody is let in.
 */
function assertScheduler(request: IncomingRequest): void {
  const { cronSecret, production } = config();
  if (!cronSecret) {
    if (production) throw new ApiError(503, 'Service unavailable: CRON_SECRET is not set');
    throw ApiError.unauthorized('Only the scheduler may call this: set CRON_SECRET');
  }
  const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (!secretMatches(given, cronSecret)) throw ApiError.unauthorized('Only the scheduler may call this');
}

/** The fields an object schema declares, the only ones a form of it may carry. */
function fieldNamesOf(schema: AnySchema | undefined): ReadonlySet<string> | undefined {
  return schema && 'entries' in schema ? new Set(Object.keys(schema.entries as object)) : undefined;
}

/**
 * Where a cacheable answer is kept in this instance: its path and the query parameters the
 * endpoint reads, in name order. Validation ignores any other parameter, so it changes nothing in
 * the answer, and a caller adding random ones is given the kept answer instead of reaching the
 * database.
 */
function answerKeyOf(endpoint: Endpoint, url: URL): string {
  const read = new Set([...(fieldNamesOf(endpoint.schemas.params) ?? []), ...(fieldNamesOf(endpoint.schemas.query) ?? [])]);
  const parameters = new URLSearchParams([...url.searchParams].filter(([name]) => read.has(name)));
  parameters.sort();
  return `${url.pathname}?${parameters}`;
}

/** Authentication is loaded only by functions that have a non-public method, keeping public reads light. */
async function callerOf(endpoint: Endpoint, request: IncomingRequest): Promise<AuthUser | null> {
  if (endpoint.access === 'public') return null;
  if (endpoint.access === 'cron') {
    assertScheduler(request);
    return null;
  }
  const { assertRole, authenticate } = await import('../auth/authenticate.js');
  const user = await authenticate(request.headers.authorization);
  if (endpoint.access === 'admin') assertRole(user, 'SUPER_ADMIN');
  return user;
}

interface Outcome {
  reply: Reply;
  user: AuthUser | null;
  /** The tags of an answer the CDN may keep. */
  cacheTags?: readonly CacheTag[];
}

async function run(endpoint: Endpoint, request: IncomingRequest, url: URL, requestId: string): Promise<Outcome> {
  await ensureBootstrap();
  const user = await callerOf(endpoint, request);
  const { schemas } = endpoint;
  const query = queryObject(url);
  const input: Input<Schemas> = {
    params: schemas.params ? await validate(schemas.params, query, 'path parameter') : undefined,
    query: schemas.query ? await validate(schemas.query, query, 'query') : undefined,
    body: undefined,
    files: [],
  };
  if (schemas.form) {
    // The multipart parser is loaded only by functions that take forms, keeping reads light.
    const { readForm } = await import('./multipart.js');
    const form = await readForm(request, schemas.form, fieldNamesOf(schemas.body));
    input.files = form.files as never;
    input.body = schemas.body ? await validate(schemas.body, form.fields, 'request body') : form.fields;
  } else if (schemas.body) {
    input.body = await validate(schemas.body, await readJsonBody(request), 'request body');
  } else {
    discardBody(request);
  }
  const ctx: RequestContext = { request, user, requestId, clientIp: clientAddress(request) };
  const cacheTags = endpoint.edgeCache?.tags(input);
  await endpoint.rateLimit?.(input, ctx);
  const key = endpoint.idempotent ? await idempotentRequestOf(request, url, input, ctx) : undefined;
  if (!key) return { reply: await endpoint.handle(input, ctx), user, cacheTags };
  const secretBearing = endpoint.idempotent === true ? undefined : endpoint.idempotent;
  // Loaded only by a creating request that carries a key.
  const { claimIdempotencyKey, settleIdempotencyKey } = await import('./idempotency.js');
  const earlier = await claimIdempotencyKey(key);
  if (earlier) return { reply: secretBearing ? await secretBearing.replay(earlier) : earlier, user };
  let reply: Reply;
  try {
    reply = await endpoint.handle(input, ctx);
  } catch (error) {
    reply = errorReply(error, requestId);
  }
  await settleIdempotencyKey(key, secretBearing ? secretBearing.keep(reply) : reply);
  return { reply, user };
}

/** The key of a creating request, scoped to its caller and route, with a digest of what it asks. */
async function idempotentRequestOf(request: IncomingRequest, url: URL, input: Input<Schemas>, ctx: RequestContext) {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const { fingerprintOf, idempotencyKeyOf } = await import('./idempotency.js');
  const key = idempotencyKeyOf(header)!;
  const scope = ctx.user?.id ?? `address:${ctx.clientIp}`;
  return { key, scope, route: `${request.method.toUpperCase()} ${url.pathname}`, fingerprint: fingerprintOf({ query: url.search, body: input.body, files: input.files }) };
}

/** Every answer says where its time went: `Server-Timing` with the database's share and the total. */
function timedAnswer(table: RouteTable, allowed: string, request: IncomingRequest): Promise<OutgoingResponse> {
  return timeRequest(async (timing) => {
    const response = await answer(table, allowed, request);
    response.headers['Server-Timing'] = serverTimingHeader(timing);
    return response;
  });
}

/** With telemetry on, the request is a span, the parent of its statements' and Bot API calls' spans. */
async function respond(table: RouteTable, allowed: string, request: IncomingRequest): Promise<OutgoingResponse> {
  if (!telemetryEnabled()) return timedAnswer(table, allowed, request);
  const method = request.method.toUpperCase();
  const path = new URL(request.url, 'http://localhost').pathname;
  const response = await inSpan(`${method} ${path}`, { 'http.request.method': method, 'url.path': path }, async (notes) => {
    const timed = await timedAnswer(table, allowed, request);
    notes.set({ 'http.response.status_code': timed.status, 'http.request.id': timed.headers['X-Request-Id'] ?? '' });
    return timed;
  });
  void defer('telemetry export', flushTelemetry);
  return response;
}

async function answer(table: RouteTable, allowed: string, request: IncomingRequest): Promise<OutgoingResponse> {
  const started = performance.now();
  const requestId = crypto.randomUUID();
  const headers: Record<string, string> = { 'X-Request-Id': requestId, 'X-Content-Type-Options': 'nosniff', ...corsHeaders(request) };
  const method = request.method.toUpperCase();
  const url = new URL(request.url, 'http://localhost');
  if (method === 'OPTIONS') {
    discardBody(request);
    return { status: 204, headers: { ...headers, ...PREFLIGHT_HEADERS }, body: null };
  }
  const endpoint = table[(method === 'HEAD' ? 'GET' : method) as HttpMethod];
  const answerKey = endpoint?.edgeCache ? answerKeyOf(endpoint, url) : undefined;
  const kept = answerKey === undefined ? undefined : keptAnswer(answerKey);
  if (kept) {
    nameReadPlan('kept-answer');
    discardBody(request);
    const response = cacheableResponse(kept, headers, request.headers['if-none-match']);
    logRequest(request, requestId, method, url, response.status, started, undefined);
    return response;
  }
  let outcome: Outcome;
  if (!endpoint) {
    discardBody(request);
    outcome = { reply: errorReply(new ApiError(405, `Method ${method} not allowed`, undefined, { Allow: allowed }), requestId), user: null };
  } else {
    try {
      outcome = await run(endpoint, request, url, requestId);
    } catch (error) {
      outcome = { reply: errorReply(error, requestId), user: null };
      discardBody(request);
    }
  }
  const cacheable =
    outcome.cacheTags && answerKey !== undefined ? { key: answerKey, tags: outcome.cacheTags, ifNoneMatch: request.headers['if-none-match'] } : undefined;
  const response = encode(outcome.reply, headers, cacheable);
  logRequest(request, requestId, method, url, response.status, started, outcome.user?.id);
  return response;
}

function logRequest(request: IncomingRequest, requestId: string, method: string, url: URL, status: number, started: number, userId: string | undefined): void {
  log.info('request', {
    requestId,
    clientRequestId: clientRequestIdOf(request),
    method,
    path: url.pathname,
    status,
    durationMs: Math.round(performance.now() - started),
    userId,
  });
}

function writeNodeResponse(res: ServerResponse, response: OutgoingResponse): void {
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.statusCode = response.status;
  res.end(response.body ?? undefined);
}

function webResponse(method: string, response: OutgoingResponse): Response {
  const body = method === 'HEAD' || response.status === 204 || response.status === 304 ? null : response.body;
  return new Response(body, { status: response.status, headers: response.headers });
}

/**
 * The one wrapper every function uses: method dispatch, CORS, authentication and roles,
 * validation of each input at the edge, the envelope, error mapping and one log line per request.
 * Dynamic path segments arrive in the query string, as the serverless platform passes them.
 */
export function route(table: RouteTable): RouteHandler {
  const allowed = [...HTTP_METHODS.filter((method) => table[method]), 'OPTIONS'].join(', ');
  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    writeNodeResponse(res, await respond(table, allowed, fromNodeRequest(req)));
  };
  const fetch = async (request: Request): Promise<Response> => webResponse(request.method, await respond(table, allowed, fromWebRequest(request)));
  return Object.assign(handler, { endpoints: table, fetch });
}
