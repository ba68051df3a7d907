import type { IncomingRequest } from './incoming-request.js';
import type { Access, AuthUser } from './access.js';
import type { CacheTag } from './edge-cache.js';
import type { Input, Schemas } from './endpoint-input.js';
import type { SecretBearingAnswer } from './idempotency.js';
import type { Reply } from './reply.js';

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

/**
 * A function's methods: the CDN may keep the answers of GET (and HEAD) only. OPTIONS is the CORS
 * preflight, which the route wrapper answers, unless the function declares an endpoint for it.
 */
export type RouteTable = { GET?: Endpoint } & { [M in Exclude<HttpMethod, 'GET'>]?: UncachedEndpoint } & { OPTIONS?: UncachedEndpoint };
