import { eq, isNotNull, isNull } from 'drizzle-orm/sql/expressions/conditions';
import { asc, desc } from 'drizzle-orm/sql/expressions/select';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { categories, listingTotals, listings, type ListingStatus } from '../db/schema.js';
import { countListings } from '../db/kept-totals.js';
import { listingColumns, pageOfListingDetails, type ListingDetailRow, type ListingRow } from '../listings/queries.js';
import type { CommissionListingsQuery } from './schema.js';

const listingsWithStatus = (status: ListingStatus) =>
  sql<number>`coalesce(sum(${listingTotals.listings}) filter (where ${listingTotals.status} = ${status}), 0)`.mapWith(Number);

/** Sums over the running totals; over no rows they are null, which reads as zero. */
const figures = {
  count: sql<number>`coalesce(sum(${listingTotals.listings}), 0)`.mapWith(Number),
  totalValue: sql<number>`coalesce(round(sum(${listingTotals.value}), 2), 0)`.mapWith(Number),
  totalStock: sql<number>`coalesce(sum(${listingTotals.stock}), 0)`.mapWith(Number),
  AVAILABLE: listingsWithStatus('AVAILABLE'),
  SOLD: listingsWithStatus('SOLD'),
  PENDING: listingsWithStatus('PENDING'),
  ARCHIVED: listingsWithStatus('ARCHIVED'),
};

/**
 * Totals over every listing, and the same per category (categories with listings, largest first),
 * read from the running totals that triggers keep per category and status.
 */
export async function assetStatistics(executor: Executor) {
  const [[totals], byCategory] = await Promise.all([
    executor.select(figures).from(listingTotals),
    executor
      .select({
        categoryId: categories.id,
        categoryName: categories.name,
        categoryDisplayName: categories.displayName,
        icon: categories.icon,
        ...figures,
      })
      .from(listingTotals)
      .innerJoin(categories, eq(categories.id, listingTotals.categoryId))
      .groupBy(categories.id)
      .having(sql`sum(${listingTotals.listings}) > 0`)
      .orderBy(desc(figures.count), asc(categories.displayName), asc(categories.id)),
  ]);
  const { count: totalAssets, ...rest } = totals!;
  return { totals: { totalAssets, ...rest }, byCategory };
}

const commissionValue = (filter?: SQL) =>
  sql<number>`coalesce(round(sum(${listingTotals.commissionValue})${filter ? sql` filter (where ${filter})` : sql``}, 2), 0)`.mapWith(Number);

/**
 * Over listings with a commission set: the count, average percent and expected revenue,
 * from the commission figures the statistics trigger keeps per category and status.
 */
export async function commissionSummary(executor: Executor) {
  const [summary] = await executor
    .select({
      totalListings: sql<number>`coalesce(sum(${listingTotals.commissioned}), 0)`.mapWith(Number),
      totalCommissionPercent: sql<number>`coalesce(round(sum(${listingTotals.commissionPercentSum}) / nullif(sum(${listingTotals.commissioned}), 0), 2), 0)`.mapWith(Number),
      totalEstimatedRevenue: commissionValue(),
      collectedCommission: commissionValue(sql`${listingTotals.status} = 'SOLD'`),
      pendingCommission: commissionValue(sql`${listingTotals.status} in ('AVAILABLE', 'PENDING')`),
    })
    .from(listingTotals);
  return summary!;
}

/** One page of listings with their category and agent, newest first, and the number matching (kept, exact). */
export async function listCommissionListings(
  executor: Executor,
  query: CommissionListingsQuery,
): Promise<{ rows: ListingDetailRow[]; total: MatchedTotal }> {
  const { status } = query;
  const commissioned = query.commissionFilter === 'all' ? undefined : query.commissionFilter === 'set';
  const byStatus = status === undefined ? undefined : eq(listings.status, status);
  // With or without a commission, newest first, has an index of its own; a status is then checked per row.
  const byCommission = commissioned === undefined ? undefined : commissioned ? isNotNull(listings.commissionPercent) : isNull(listings.commissionPercent);
  const { rows, total } = await pageOfListingDetails(
    executor,
    {
      indexed: byCommission ?? byStatus,
      indexedCount: () => countListings(executor, byCommission ? { commissioned } : { status }),
      checked: byCommission ? byStatus : undefined,
      keptTotal: () => countListings(executor, { status, commissioned }),
    },
    query,
  );
  return { rows, total: total! };
}

/** Sets or clears a listing's commission; null when there is no such listing. */
export async function setCommissionPercent(executor: Executor, id: string, percent: number | null): Promise<ListingRow | null> {
  const [row] = await executor.update(listings).set({ commissionPercent: percent }).where(eq(listings.id, id)).returning(listingColumns);
  return row ?? null;
}
