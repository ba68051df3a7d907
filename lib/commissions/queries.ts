import { and, asc, count, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { categories, listingTotals, listings, type ListingStatus } from '../db/schema.js';
import { pageOfListingDetails, type ListingDetailRow } from '../listings/queries.js';
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

const commissionAmount = sql`${listings.price} * ${listings.commissionPercent} / 100`;
const roundedSum = (filter?: SQL) =>
  sql<number>`coalesce(round(sum(${commissionAmount})${filter ? sql` filter (where ${filter})` : sql``}, 2), 0)`.mapWith(Number);

/** D25: over listings with a commission set, the count, average percent and expected revenue. */
export async function commissionSummary(executor: Executor) {
  const [summary] = await executor
    .select({
      totalListings: count(),
      totalCommissionPercent: sql<number>`coalesce(round(avg(${listings.commissionPercent}), 2), 0)`.mapWith(Number),
      totalEstimatedRevenue: roundedSum(),
      collectedCommission: roundedSum(sql`${listings.status} = 'SOLD'`),
      pendingCommission: roundedSum(sql`${listings.status} in ('AVAILABLE', 'PENDING')`),
    })
    .from(listings)
    .where(isNotNull(listings.commissionPercent));
  return summary!;
}

function commissionListConditions(query: CommissionListingsQuery): SQL | undefined {
  return and(
    query.status === undefined ? undefined : eq(listings.status, query.status),
    query.commissionFilter === 'set' ? isNotNull(listings.commissionPercent) : undefined,
    query.commissionFilter === 'unset' ? isNull(listings.commissionPercent) : undefined,
  );
}

/** One page of listings with their category and agent, newest first, and the number matching. */
export function listCommissionListings(
  executor: Executor,
  query: CommissionListingsQuery,
): Promise<{ rows: ListingDetailRow[]; total: number }> {
  return pageOfListingDetails(executor, commissionListConditions(query), query);
}

/** Sets or clears a listing's commission; false when there is no such listing. */
export async function setCommissionPercent(executor: Executor, id: string, percent: number | null): Promise<boolean> {
  const rows = await executor
    .update(listings)
    .set({ commissionPercent: percent })
    .where(eq(listings.id, id))
    .returning({ id: listings.id });
  return rows.length > 0;
}
