import { and, eq, inArray, isNotNull, isNull, lt } from 'drizzle-orm/sql/expressions/conditions';
import { desc } from 'drizzle-orm/sql/expressions/select';
import { sql } from 'drizzle-orm/sql/sql';
import { boundedTotal, type MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { listings } from '../db/schema.js';
import { listingUnedited } from '../db/unedited.js';
import { offsetOf } from '../http/common-schemas.js';
import { inShop, listingColumns, listingsMatching, selectListingDetails, type ListingDetailRow, type ListingRow, type ShopListingRow } from './queries.js';
import type { ListingListQuery } from './schema.js';

/** Moves a listing out of the shop into the trash, now by the database's clock; undefined when it is not in the shop. */
export async function moveListingToTrash(executor: Executor, id: string): Promise<ListingRow | undefined> {
  const [row] = await executor
    .update(listings)
    .set({ deletedAt: sql`now()`, ...listingUnedited })
    .where(and(eq(listings.id, id), isNull(listings.deletedAt)))
    .returning(listingColumns);
  return row;
}

/**
 * Brings a listing back from the trash as it was, when it is there: one conditional statement, so
 * of two restores at once one brings it back and the other finds it out of the trash.
 */
export async function bringBackFromTrash(executor: Executor, id: string): Promise<ShopListingRow | undefined> {
  const [row] = await executor
    .update(listings)
    .set({ deletedAt: null, ...listingUnedited })
    .where(and(eq(listings.id, id), isNotNull(listings.deletedAt)))
    .returning(listingColumns);
  return row && inShop(row);
}


/**
 * A page of the trash, newest deletion first, with the list's filters, and how many match: the
 * trashed listings are few (they leave after their retention), so each is checked against the
 * filters, read through the trash's own index. `agentId` limits it to that agent's.
 */
export async function listTrashedListingDetails(
  executor: Executor,
  filters: ListingListQuery,
  agentId: string | undefined,
): Promise<{ rows: ListingDetailRow[]; total: MatchedTotal }> {
  const where = listingsMatching({ ...filters, trashed: true }, agentId);
  const [rows, total] = await Promise.all([
    selectListingDetails(executor)
      .where(where)
      .orderBy(desc(listings.deletedAt), desc(listings.id))
      .limit(filters.limit)
      .offset(offsetOf(filters)),
    boundedTotal(executor, executor.select({ id: listings.id }).from(listings).where(where)),
  ]);
  return { rows, total };
}

/**
 * Deletes up to `limit` listings in the trash for more than `retentionDays`, oldest deletion first,
 * and answers them. Rows another transaction holds (a restore, another sweep) are skipped.
 */
export async function deleteExpiredTrash(executor: Executor, retentionDays: number, limit: number): Promise<ListingRow[]> {
  const expired = executor
    .select({ id: listings.id })
    .from(listings)
    .where(lt(listings.deletedAt, sql`now() - make_interval(days => ${retentionDays})`))
    .orderBy(listings.deletedAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  return executor.delete(listings).where(inArray(listings.id, expired)).returning(listingColumns);
}
