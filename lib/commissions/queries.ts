import { and, asc, count, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { categories, listings, type ListingStatus } from '../db/schema.js';
import { pageOfListingDetails, type ListingDetailRow } from '../listings/queries.js';
import type { CommissionListingsQuery } from './schema.js';

const countWithStatus = (status: ListingStatus) => sql<number>`count(*) filter (where ${listings.status} = ${status})`.mapWith(Number);

const statusCounts = {
  AVAILABLE: countWithStatus('AVAILABLE'),
  SOLD: countWithStatus('SOLD'),
  PENDING: countWithStatus('PENDING'),
  ARCHIVED: countWithStatus('ARCHIVED'),
};

/** Aggregates over no rows are null: these read as zero. */
const totalValue = sql<number>`coalesce(round(sum(${listings.price}), 2), 0)`.mapWith(Number);
const totalStock = sql<number>`coalesce(sum(${listings.stockQuantity}), 0)`.mapWith(Number);

/** Totals over every listing, and the same per category (categories with listings, largest first). */
export async function assetStatistics(executor: Executor) {
  const [[totals], byCategory] = await Promise.all([
    executor.select({ totalAssets: count(), totalValue, totalStock, ...statusCounts }).from(listings),
    executor
      .select({
        categoryId: categories.id,
        categoryName: categories.name,
        categoryDisplayName: categories.displayName,
        icon: categories.icon,
        count: count(),
        totalValue,
        totalStock,
        ...statusCounts,
      })
      .from(listings)
      .innerJoin(categories, eq(categories.id, listings.categoryId))
      .groupBy(categories.id)
      .orderBy(desc(count()), asc(categories.displayName), asc(categories.id)),
  ]);
  return { totals: totals!, byCategory };
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
