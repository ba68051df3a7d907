import type { AuthUser } from '../http/access.js';
import { enforceRateLimit } from '../rate-limit/enforce-rate-limit.js';

/** Posting by hand is limited per listing and per agent, so no agent can flood the shop's channel. */
const POSTS_PER_LISTING = { limit: 5, windowSeconds: 60 };
const POSTS_PER_AGENT = { limit: 30, windowSeconds: 60 };

/**
 * Counts a post by hand. Its handler counts it once the listing is found and the caller may post
 * it, not before: counted earlier, an agent's calls naming another agent's listing would spend that
 * listing's posts, and a retry names its listing only through the entry it loads.
 */
export async function throttlePosting(listingId: string, user: AuthUser): Promise<void> {
  await enforceRateLimit({ key: `channel-post-listing:${listingId}`, ...POSTS_PER_LISTING });
  if (user.role === 'AGENT') await enforceRateLimit({ key: `channel-post-agent:${user.id}`, ...POSTS_PER_AGENT });
}

/**
 * What every post by hand (a listing posted now, a failed attempt retried) declares alike: an
 * agent's own listings or any for an administrator, the throttle above, a key per attempt, and
 * what posting may answer besides.
 */
export const MANUAL_POSTING = {
  access: 'token',
  errors: ['CONFLICT', 'NOT_CONFIGURED', 'UPSTREAM_FAILED'],
  rateLimit: { inHandler: [throttlePosting] },
  idempotent: true,
} as const;
