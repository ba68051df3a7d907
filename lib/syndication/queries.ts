import { and, eq, inArray, isNotNull, lt, lte } from 'drizzle-orm/sql/expressions/conditions';
import { desc } from 'drizzle-orm/sql/expressions/select';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import { boundedTotal, type MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { listings, syndicationLogs, type SyndicationAction, type SyndicationStatus } from '../db/schema.js';
import { offsetOf } from '../http/common-schemas.js';
import type { ListingWithRules } from '../listings/queries.js';
import type { CaptionListing } from './caption.js';
import type { LogRow } from './presenter.js';
import type { LogsFilter } from './schema.js';

/** What posting needs of a listing: its owner, caption fields, category rules and images. */
export type PostableListing = CaptionListing & ListingWithRules;

export async function insertPendingLog(
  executor: Executor,
  values: { listingId: string; platform: string; action: SyndicationAction; channelInfo: string; attempt?: number },
): Promise<LogRow> {
  const [row] = await executor
    .insert(syndicationLogs)
    .values({ ...values, status: 'PENDING' })
    .returning();
  return row!;
}

/** An entry still waiting to be posted. */
export async function findPendingLog(executor: Executor, id: string): Promise<LogRow | undefined> {
  const [row] = await executor
    .select()
    .from(syndicationLogs)
    .where(and(eq(syndicationLogs.id, id), eq(syndicationLogs.status, 'PENDING')))
    .limit(1);
  return row;
}

/**
 * Takes up to `limit` `PENDING` entries older than `olderThanSeconds` (their invocation died) for
 * this sweep: their run time moves to now, so no other sweep takes them meanwhile, and rows another
 * sweep is taking are skipped rather than waited for.
 */
export async function claimStalePendingLogs(executor: Executor, olderThanSeconds: number, limit: number): Promise<string[]> {
  const stale = executor
    .select({ id: syndicationLogs.id })
    .from(syndicationLogs)
    .where(and(eq(syndicationLogs.status, 'PENDING'), lt(syndicationLogs.runAt, sql`now() - make_interval(secs => ${olderThanSeconds})`)))
    .orderBy(syndicationLogs.runAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await executor.update(syndicationLogs).set({ runAt: sql`now()` }).where(inArray(syndicationLogs.id, stale)).returning({ id: syndicationLogs.id });
  return rows.map((row) => row.id);
}

/** Takes up to `limit` failed entries whose retry is due, clearing their retry time as it does (see above). */
export async function claimDueRetries(executor: Executor, limit: number): Promise<LogRow[]> {
  const due = executor
    .select({ id: syndicationLogs.id })
    .from(syndicationLogs)
    .where(and(eq(syndicationLogs.status, 'FAILED'), lte(syndicationLogs.retryAt, sql`now()`)))
    .orderBy(syndicationLogs.retryAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  return executor.update(syndicationLogs).set({ retryAt: null }).where(inArray(syndicationLogs.id, due)).returning();
}

/** A failed entry that has been tried again is not the sweeper's to retry any more. */
export async function clearRetry(executor: Executor, id: string): Promise<void> {
  await executor.update(syndicationLogs).set({ retryAt: null }).where(eq(syndicationLogs.id, id));
}

export async function finishLog(
  executor: Executor,
  id: string,
  outcome: {
    status: Extract<SyndicationStatus, 'SUCCESS' | 'FAILED'>;
    messageId?: number | null;
    postMessageIds?: number[] | null;
    errorMessage?: string | null;
    retryAt?: Date | null;
    retryAfterSeconds?: number | null;
  },
): Promise<LogRow | undefined> {
  const [row] = await executor
    .update(syndicationLogs)
    .set({
      status: outcome.status,
      messageId: outcome.messageId ?? null,
      postMessageIds: outcome.postMessageIds ?? null,
      errorMessage: outcome.errorMessage ?? null,
      retryAt: outcome.retryAt ?? null,
      retryAfterSeconds: outcome.retryAfterSeconds ?? null,
    })
    .where(eq(syndicationLogs.id, id))
    .returning();
  return row;
}

/** Why an entry of a listing that left the shop (moved to the trash, or removed) was not posted. */
export const LEFT_THE_SHOP = 'The listing left the shop before the post went out';

/**
 * A listing that left the shop has no post on the way: its entries still waiting fail, and failed
 * ones are not tried again. An entry being posted right now is finished by its poster, which then
 * finds the listing gone and takes the post down.
 */
export async function settleEntriesOfRemovedListing(executor: Executor, listingId: string): Promise<void> {
  await executor
    .update(syndicationLogs)
    .set({ status: 'FAILED', errorMessage: LEFT_THE_SHOP, retryAt: null })
    .where(and(eq(syndicationLogs.listingId, listingId), eq(syndicationLogs.status, 'PENDING')));
  await executor
    .update(syndicationLogs)
    .set({ retryAt: null })
    .where(and(eq(syndicationLogs.listingId, listingId), isNotNull(syndicationLogs.retryAt)));
}

/** The message of the listing's latest successful post in this channel, the one an edit changes. */
export async function lastPostedMessage(executor: Executor, listingId: string, channelInfo: string): Promise<number | undefined> {
  const [row] = await executor
    .select({ messageId: syndicationLogs.messageId })
    .from(syndicationLogs)
    .where(
      and(
        eq(syndicationLogs.listingId, listingId),
        eq(syndicationLogs.channelInfo, channelInfo),
        eq(syndicationLogs.status, 'SUCCESS'),
        isNotNull(syndicationLogs.messageId),
      ),
    )
    .orderBy(desc(syndicationLogs.runAt), desc(syndicationLogs.id))
    .limit(1);
  return row?.messageId ?? undefined;
}

/** The listing a channel message was posted for, when the message is ours. */
export async function listingOfMessage(executor: Executor, channelInfo: string, messageId: number): Promise<string | undefined> {
  const [row] = await executor
    .select({ listingId: syndicationLogs.listingId })
    .from(syndicationLogs)
    .where(and(eq(syndicationLogs.channelInfo, channelInfo), eq(syndicationLogs.messageId, messageId), eq(syndicationLogs.status, 'SUCCESS')))
    .orderBy(desc(syndicationLogs.runAt))
    .limit(1);
  return row?.listingId;
}

export interface LogWithListing {
  log: LogRow;
  listing: { id: string; title: string; agentId: string | null };
}

export async function findLogWithListing(executor: Executor, id: string): Promise<LogWithListing | undefined> {
  const [row] = await executor
    .select({ log: syndicationLogs, listing: { id: listings.id, title: listings.title, agentId: listings.agentId } })
    .from(syndicationLogs)
    .innerJoin(listings, eq(listings.id, syndicationLogs.listingId))
    .where(eq(syndicationLogs.id, id))
    .limit(1);
  return row;
}

/**
 * The log entries of one agent's listings counted one by one: each is found through a listing of
 * the agent, an index probe apiece, so a busy agent's (tens of thousands) would cost far more to
 * count than the page. From these on, the total says this many, flagged as not exact.
 */
const COUNTED_AGENT_LOGS = 1_000;

/** A page of log entries, newest first; `agentId` limits them to that agent's listings. */
export async function listLogs(executor: Executor, filter: LogsFilter, agentId: string | undefined): Promise<{ rows: LogWithListing[]; total: MatchedTotal }> {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(syndicationLogs.status, filter.status));
  if (filter.action) conditions.push(eq(syndicationLogs.action, filter.action));
  if (filter.listingId) conditions.push(eq(syndicationLogs.listingId, filter.listingId));
  if (agentId) conditions.push(eq(listings.agentId, agentId));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [rows, total] = await Promise.all([
    executor
      .select({ log: syndicationLogs, listing: { id: listings.id, title: listings.title, agentId: listings.agentId } })
      .from(syndicationLogs)
      .innerJoin(listings, eq(listings.id, syndicationLogs.listingId))
      .where(where)
      .orderBy(desc(syndicationLogs.runAt), desc(syndicationLogs.id))
      .limit(filter.limit)
      .offset(offsetOf(filter)),
    boundedTotal(
      executor,
      executor.select({ id: syndicationLogs.id }).from(syndicationLogs).innerJoin(listings, eq(listings.id, syndicationLogs.listingId)).where(where),
      agentId ? COUNTED_AGENT_LOGS : undefined,
    ),
  ]);
  return { rows, total };
}
