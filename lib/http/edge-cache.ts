import { log } from '../log.js';
import { forgetTagged } from './answer-cache.js';

/**
 * What a public answer kept by the CDN shows, by kind of data. An answer carries the tag of
 * everything it shows; a write purges the tags of what it changed, and so exactly the answers that
 * show it. `category:<id>` is one category's own answer (its fields and listing count).
 */
export type CacheTag = 'listings' | 'categories' | `category:${string}` | 'settings' | 'messenger-bot';

export function categoryTag(id: string): CacheTag {
  return `category:${id}`;
}

/** How long the CDN serves an answer as fresh: at most 60 s, so a purge that is missed heals within a minute. */
const CDN_FRESH_SECONDS = 60;
/** How long after that it may still serve it once while it fetches the new one in the background. */
const CDN_STALE_SECONDS = 60;

/**
 * The CDN keeps the answer; browsers keep nothing (`max-age=0`) and ask again each time, with the
 * ETag, so they see a purge as soon as the CDN does.
 */
export const EDGE_CACHE_CONTROL = `public, max-age=0, s-maxage=${CDN_FRESH_SECONDS}, stale-while-revalidate=${CDN_STALE_SECONDS}`;

/**
 * The platform's CDN files a response under the tags of this header and strips it before the
 * client. Set on the response beside `Cache-Control` and the ETag, it needs no request context and
 * shows the same wherever the function runs.
 */
export const CACHE_TAG_HEADER = 'Vercel-Cache-Tag';

/** The headers of an answer the CDN may keep: its lifetime, its validator and its tags. */
export function edgeCacheHeaders(tags: readonly string[], entityTag: string): Record<string, string> {
  return { 'Cache-Control': EDGE_CACHE_CONTROL, ETag: entityTag, [CACHE_TAG_HEADER]: tags.join(',') };
}

/**
 * Drops this instance's cached answers carrying one of the tags, and marks every CDN answer carrying
 * one as stale, through the platform's purge API
 * (`invalidateByTag`, a no-op where no platform context is installed). Called once a write has
 * committed, before it answers. A failed purge is logged and does not fail the write, which has
 * happened: the answers it leaves behind expire within the CDN's lifetime.
 */
export async function invalidateEdgeCache(tags: readonly CacheTag[]): Promise<void> {
  const unique = [...new Set(tags)];
  if (unique.length === 0) return;
  forgetTagged(unique);
  try {
    // Loaded by writes only, keeping the public reads' cold start light.
    const { invalidateByTag } = await import('@vercel/functions');
    await invalidateByTag(unique);
  } catch (error) {
    log.error('could not invalidate cache tags', { tags: unique, error });
  }
}
