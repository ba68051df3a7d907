import type { IncomingRequest } from './incoming-request.js';
import type { Access, AuthUser } from './access.js';
import type { CacheTag } from './edge-cache.js';
import type { Input, Schemas } from './endpoint-input.js';
import type { ErrorCode } from './error-codes.js';
import type { SecretBearingAnswer } from './idempotency.js';
import type { Reply } from './reply.js';
import type { ReplyOf, SuccessAnswer } from './success-answer.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface RequestContext<A extends Access = Access> {
  request: IncomingRequest;
  user: A extends 'token' | 'admin' ? AuthUser : AuthUser | null;
  requestId: string;
  clientIp: string;
  /** The network the address counts as for limits and sign-in lanes (an IPv6 address by its /64). */
  clientNetwork: string;
}

/**
 * A public answer the CDN may keep: a 200 goes out with `Cache-Control` for the CDN, an ETag
 * (a matching `If-None-Match` is answered 304) and the cache tags of what it shows, which the
 * writes that change it purge. Any other status stays `no-store`.
 */
interface EdgeCache<S extends Schemas = Schemas> {
  tags: (input: Input<S>) => readonly CacheTag[];
}

/** A limiter a handler calls itself. */
type HandlerLimiter = (...args: never[]) => Promise<unknown>;

/** Every rate limit of an endpoint, each answering 429 when over. */
export interface RateLimits<S extends Schemas = Schemas> {
  /**
   * Counted once the input is read, before the handler runs and before its Idempotency-Key is
   * taken: a refused request leaves no key behind, and a flood of fresh keys writes nothing.
   */
  beforeHandler?: (input: Input<S>, ctx: RequestContext) => Promise<void>;
  /**
   * The limiters the handler calls itself, for limits that hang on what only it learns: a wrong
   * password or code is counted once it is found wrong, a posting once the caller may make it.
   * Named here so the declaration shows every limit the endpoint answers 429 for.
   */
  inHandler?: readonly HandlerLimiter[];
}

/** What an endpoint says of itself in the OpenAPI document, beyond what its code shows. */
interface EndpointNotes {
  summary: string;
  description?: string;
  /** 201 for writes that create a record; both for a write that creates or updates one. */
  successStatus?: 200 | 201 | readonly [200, 201];
  /**
   * Error codes beyond those its access, inputs and options imply (see errorCodesOf in
   * lib/openapi/document.ts). A 429 is declared by `rateLimit` alone.
   */
  errors?: readonly Exclude<ErrorCode, 'RATE_LIMITED'>[];
}

interface EndpointOptions<S extends Schemas> {
  /**
   * A creating request that honours `Idempotency-Key`: a retry with the key gets the first answer.
   * An answer that carries a secret says how it is kept and replayed without storing the secret.
   */
  idempotent?: true | SecretBearingAnswer;
  rateLimit?: RateLimits<S>;
  edgeCache?: EdgeCache<S>;
}

/** One method of a route, declared once: who may call it, its inputs, what it answers, its notes, options and handler. */
export interface EndpointDeclaration<A extends Access, S extends Schemas, Answer extends SuccessAnswer> extends EndpointNotes, EndpointOptions<S> {
  access: A;
  /** The schemas of its inputs; none when it reads no input. */
  schemas?: S;
  /** What a success answers: the handler's reply is typed by it, and the document describes it. */
  answer: Answer;
  handle: (input: Input<S>, ctx: RequestContext<A>) => Promise<ReplyOf<Answer>>;
}

/** A declared endpoint, as the route wrapper runs it and the document reads it. */
export interface Endpoint extends EndpointNotes, EndpointOptions<Schemas> {
  access: Access;
  schemas: Schemas;
  answer: SuccessAnswer;
  handle: (input: Input<Schemas>, ctx: RequestContext) => Promise<Reply>;
}

/** An endpoint whose answers the CDN may keep: a public one, and only as a GET (see RouteTable). */
type CachedEndpoint = Endpoint & { edgeCache: EdgeCache };
type UncachedEndpoint = Endpoint & { edgeCache?: undefined };

type NoInput = Record<never, never>;

/** Declares one method of a route (see EndpointDeclaration). */
export function endpoint<S extends Schemas = NoInput, Answer extends SuccessAnswer = SuccessAnswer>(
  declaration: EndpointDeclaration<'public', S, Answer> & { edgeCache: EdgeCache<S> },
): CachedEndpoint;
export function endpoint<A extends Access, S extends Schemas = NoInput, Answer extends SuccessAnswer = SuccessAnswer>(
  declaration: EndpointDeclaration<A, S, Answer> & { edgeCache?: undefined },
): UncachedEndpoint;
export function endpoint<A extends Access, S extends Schemas, Answer extends SuccessAnswer>(declaration: EndpointDeclaration<A, S, Answer>): Endpoint {
  return { ...declaration, schemas: declaration.schemas ?? {} } as unknown as Endpoint;
}

/**
 * A function's methods: the CDN may keep the answers of GET (and HEAD) only. OPTIONS is the CORS
 * preflight, which the route wrapper answers, unless the function declares an endpoint for it.
 */
export type RouteTable = { GET?: Endpoint } & { [M in Exclude<HttpMethod, 'GET'>]?: UncachedEndpoint } & { OPTIONS?: UncachedEndpoint };
