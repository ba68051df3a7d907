import { sql } from 'drizzle-orm/sql/sql';
import { getDb, type Executor } from '../db/client.js';
import { ok, type DataReply } from '../http/reply.js';
import type { PostingHealthView } from './view.js';

/** How the channel posting stands, from the posting log. */
export type PostingHealth = PostingHealthView;

interface HealthRow {
  pending: number;
  failedRetrying: number;
  failedForGood24h: number;
  succeeded24h: number;
  oldestPendingSeconds: number | null;
  lastSuccessAt: string | Date | null;
  lastFailureAt: string | Date | null;
  lastRateLimitedAt: string | Date | null;
  lastRetryAfterSeconds: number | null;
}

const DAY = sql`now() - interval '24 hours'`;

/**
 * One statement of small index reads (migration 0021's indexes and the sweeper's partial ones): a
 * day's entries of each state, the waiting and retrying ones, and each state's latest, never a
 * scan of the log. A failure that was tried again (a later attempt of the same listing exists)
 * does not count as failed for good.
 */
async function readPostingHealth(executor: Executor): Promise<PostingHealth> {
  const { rows } = (await executor.execute(sql`
    select
      (select count(*)::int from syndication_logs where status = 'PENDING') as "pending",
      (select count(*)::int from syndication_logs where status = 'FAILED' and "retryAt" is not null) as "failedRetrying",
      (select count(*)::int from syndication_logs failed
        where failed.status = 'FAILED' and failed."runAt" > ${DAY} and failed."retryAt" is null
          and not exists (select 1 from syndication_logs retried
            where retried."listingId" = failed."listingId" and retried.attempt = failed.attempt + 1 and retried."runAt" >= failed."runAt")) as "failedForGood24h",
      (select count(*)::int from syndication_logs where status = 'SUCCESS' and "runAt" > ${DAY}) as "succeeded24h",
      (select floor(extract(epoch from now() - min("runAt")))::int from syndication_logs where status = 'PENDING') as "oldestPendingSeconds",
      (select max("runAt") from syndication_logs where status = 'SUCCESS') as "lastSuccessAt",
      (select max("runAt") from syndication_logs where status = 'FAILED') as "lastFailureAt",
      limited."runAt" as "lastRateLimitedAt",
      limited."retryAfterSeconds" as "lastRetryAfterSeconds"
    from (select 1) as one
    left join lateral (
      select "runAt", "retryAfterSeconds" from syndication_logs where "retryAfterSeconds" is not null order by "runAt" desc limit 1
    ) as limited on true
  `)) as unknown as { rows: HealthRow[] };
  const row = rows[0]!;
  return {
    pending: Number(row.pending),
    failedRetrying: Number(row.failedRetrying),
    failedForGood24h: Number(row.failedForGood24h),
    succeeded24h: Number(row.succeeded24h),
    oldestPendingSeconds: row.oldestPendingSeconds === null ? null : Math.max(0, Number(row.oldestPendingSeconds)),
    lastSuccessAt: isoOrNull(row.lastSuccessAt),
    lastFailureAt: isoOrNull(row.lastFailureAt),
    lastRateLimitedAt: isoOrNull(row.lastRateLimitedAt),
    lastRetryAfterSeconds: row.lastRetryAfterSeconds === null ? null : Number(row.lastRetryAfterSeconds),
  };
}

/** Raw statements answer times as text (node-postgres, Neon) or as dates (PGlite). */
function isoOrNull(value: string | Date | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/** `GET /api/syndication/health`: whether the channel is still posting, for administrators. */
export async function postingHealth(): Promise<DataReply<PostingHealthView>> {
  return ok(await readPostingHealth(await getDb()));
}
