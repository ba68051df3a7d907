/**
 * The answers of the CDN-cacheable public reads, cached in this instance for a moment
 * (`ANSWER_CACHE_MS`): a storefront read again within it is answered without the database, as the
 * CDN would answer it. A write made through this instance drops the answers carrying its tags as
 * it purges the CDN's; another instance's write reaches this one's answers when they expire.
 * A read asked while another request of the instance is reading the same answer waits for that
 * answer instead of reading it too, as a CDN collapses the requests that meet one miss; when an
 * answer that ran out no longer ago than its lifetime is being read again, it is given meanwhile
 * instead, as the CDN's `stale-while-revalidate` does.
 */
export interface CachedAnswer {
  body: string;
  entityTag: string;
  /** The answer's cache tags (edge-cache.ts). */
  tags: readonly string[];
}

/** A busy storefront asks a few hundred distinct questions; the bound keeps a crawler's from growing the instance. */
const MOST_ANSWERS = 500;

/** A kept answer, fresh until `expiresAt`, and given while it is read again until `replaceableUntil`, a lifetime later. */
const cached = new Map<string, CachedAnswer & { expiresAt: number; replaceableUntil: number }>();

/** The answer cached for `key` (method, path and query) while it is fresh. */
export function cachedAnswer(key: string, now = Date.now()): CachedAnswer | undefined {
  const answer = cached.get(key);
  if (answer === undefined) return undefined;
  if (answer.expiresAt > now) return answer;
  if (answer.replaceableUntil <= now) cached.delete(key);
  return undefined;
}

/** The answer cached for `key` that ran out no longer ago than its lifetime: what is given while its successor is read. */
export function answerBeingReplaced(key: string, now = Date.now()): CachedAnswer | undefined {
  const answer = cached.get(key);
  return answer !== undefined && answer.replaceableUntil > now ? answer : undefined;
}

export function cacheAnswer(key: string, answer: CachedAnswer, lifetimeMs: number): void {
  if (lifetimeMs <= 0) return;
  cached.delete(key);
  if (cached.size >= MOST_ANSWERS) cached.delete(cached.keys().next().value!);
  const expiresAt = Date.now() + lifetimeMs;
  cached.set(key, { ...answer, expiresAt, replaceableUntil: expiresAt + lifetimeMs });
}

/** Drops every cached answer carrying one of the tags: a write here changed what it shows. */
export function forgetTagged(tags: readonly string[]): void {
  if (cached.size === 0) return;
  const dropped = new Set(tags);
  for (const [key, answer] of cached) if (answer.tags.some((tag) => dropped.has(tag))) cached.delete(key);
}

/** Answers a request of this instance is reading, by key, each settling with the answer it kept (none when it kept none). */
const reading = new Map<string, Promise<CachedAnswer | undefined>>();

/** The answer another request of this instance is reading for `key`, once read; undefined when none is. */
export function answerBeingRead(key: string): Promise<CachedAnswer | undefined> | undefined {
  return reading.get(key);
}

/**
 * Marks the answer for `key` as being read, while answers are cached at all: the requests that ask
 * for it meanwhile wait for it. The function returned settles them with what was then kept under
 * `key`: none when the read failed or gave an answer that is not kept, and each reads its own.
 */
export function readingAnswer(key: string, lifetimeMs: number): () => void {
  if (lifetimeMs <= 0) return () => {};
  let settle!: (answer: CachedAnswer | undefined) => void;
  const read = new Promise<CachedAnswer | undefined>((resolve) => (settle = resolve));
  reading.set(key, read);
  return () => {
    if (reading.get(key) === read) reading.delete(key);
    settle(cachedAnswer(key));
  };
}
