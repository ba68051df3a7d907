import { config } from '../config.js';
import { answerBeingRead, answerBeingReplaced, cacheAnswer, cachedAnswer, readingAnswer, type CachedAnswer } from './answer-cache.js';
import { edgeCacheHeaders, type CacheTag } from './edge-cache.js';
import { fieldNamesOf, type Schemas } from './endpoint-input.js';
import { entityTagOf, ifNoneMatchNames } from './entity-tag.js';
import type { OutgoingResponse } from './incoming-request.js';

/** How the CDN may keep an answer: the tags of what it shows, and the validator the caller holds. */
export interface Cacheable {
  tags: readonly CacheTag[];
  ifNoneMatch: string | undefined;
  /** Where the answer is cached in this instance (answer-cache.ts). */
  key: string;
}

/**
 * Where a cacheable answer is cached in this instance: its path and the query parameters the
 * endpoint reads, in name order. Validation ignores any other parameter, so it changes nothing in
 * the answer, and a caller adding random ones is given the cached answer instead of reaching the
 * database.
 */
export function answerKeyOf(schemas: Schemas, url: URL): string {
  const read = new Set([...(fieldNamesOf(schemas.params) ?? []), ...(fieldNamesOf(schemas.query) ?? [])]);
  const parameters = new URLSearchParams([...url.searchParams].filter(([name]) => read.has(name)));
  parameters.sort();
  return `${url.pathname}?${parameters}`;
}

/** The answer this instance keeps under `key`, while it is fresh. */
export function cachedResponse(key: string, headers: Record<string, string>, ifNoneMatch: string | undefined): OutgoingResponse | undefined {
  const cached = cachedAnswer(key);
  return cached && cacheableResponse(cached, headers, ifNoneMatch);
}

/**
 * While another request of this instance is reading the answer for `key`: the answer it replaces,
 * when that ran out no longer ago than its lifetime, or else the one being read, once it is kept.
 * Undefined when none is being read, or the one read is not kept.
 */
export async function sharedResponse(key: string, headers: Record<string, string>, ifNoneMatch: string | undefined): Promise<OutgoingResponse | undefined> {
  const read = answerBeingRead(key);
  if (read === undefined) return undefined;
  const answer = answerBeingReplaced(key) ?? (await read);
  return answer && cacheableResponse(answer, headers, ifNoneMatch);
}

/** Marks the answer for `key` as being read by this request; the function returned says the read is over. */
export function readingResponse(key: string): () => void {
  return readingAnswer(key, config().answerCacheMs);
}

/** Keeps a cacheable 200 in this instance for a moment and answers it (or its 304). */
export function keepResponse(body: string, headers: Record<string, string>, cacheable: Cacheable): OutgoingResponse {
  const answer = { body, entityTag: entityTagOf(body), tags: cacheable.tags };
  cacheAnswer(cacheable.key, answer, config().answerCacheMs);
  return cacheableResponse(answer, headers, cacheable.ifNoneMatch);
}

/** A cacheable answer's 200, or its 304 when the client already holds it. */
function cacheableResponse(answer: CachedAnswer, headers: Record<string, string>, ifNoneMatch: string | undefined): OutgoingResponse {
  Object.assign(headers, edgeCacheHeaders(answer.tags, answer.entityTag));
  // A 304 carries the validator and caching headers a 200 would, and no body or content headers.
  if (ifNoneMatchNames(ifNoneMatch, answer.entityTag)) return { status: 304, headers, body: null };
  headers['Content-Type'] = 'application/json; charset=utf-8';
  return { status: 200, headers, body: answer.body };
}
