import { sql } from 'drizzle-orm/sql/sql';
import { getDb } from '../db/client.js';
import { rateLimits } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';
import { log } from '../log.js';

export interface RateLimitRule {
  /** Names the counted thing and its scope, e.g. `login:<email>:<ip>`. */
  key: string;
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
}

const TOO_MANY_REQUESTS = 'Too many requests, try again later';

/** Expired rows removed per sweep: bounded so one sweep never turns into a long-running delete. */
const SWEEP_BATCH = 500;

/**
 * Removes counters whose window has ended. `skip locked` leaves rows that a concurrent request is
 * reopening to that request, so sweeps never wait on (or block) the counters themselves.
 */
async function sweepExpiredCounters(): Promise<void> {
  const db = await getDb();
  await db.execute(sql`
    delete from ${rateLimits}
    where ${rateLimits.key} in (
      select ${rateLimits.key} from ${rateLimits}
      where ${rateLimits.resetAt} < now()
      order by ${rateLimits.resetAt}
      limit ${SWEEP_BATCH}
      for update skip locked
    )`);
}

/**
 * Counts one request against a fixed window shared by every instance (the counter lives in the
 * database) and throws 429 with `Retry-After` once the window's limit is passed. Counting and
 * window rollover are one upsert statement, so concurrent requests can never both take the last slot.
 * Times come from the database clock alone, so instances with drifting clocks agree.
 */
export async function enforceRateLimit({ key, limit, windowSeconds }: RateLimitRule): Promise<void> {
  const db = await getDb();
  const windowEnded = sql`${rateLimits.resetAt} <= now()`;
  const [counter] = await db
    .insert(rateLimits)
    .values({ key, count: 1, resetAt: sql`now() + make_interval(secs => ${windowSeconds})` })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${windowEnded} then 1 else ${rateLimits.count} + 1 end`,
        resetAt: sql`case when ${windowEnded} then excluded."resetAt" else ${rateLimits.resetAt} end`,
      },
    })
    .returning({
      count: rateLimits.count,
      retryAfterSeconds: sql<number>`greatest(1, ceil(extract(epoch from ${rateLimits.resetAt} - now())))::int`,
    });
  if (!counter) throw new Error(`rate limit upsert returned no row for ${key}`);
  // A window opening is rare enough per key to be the moment to clear out ended ones: a bounded
  // delete over the resetAt index, done inline so no background work outlives the invocation.
  if (counter.count === 1) await sweepExpiredCounters().catch((error: unknown) => log.warn('rate limit sweep failed', { error }));
  if (counter.count > limit) {
    throw new ApiError(429, TOO_MANY_REQUESTS, undefined, { 'Retry-After': String(counter.retryAfterSeconds) });
  }
}
