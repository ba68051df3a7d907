import { and, eq } from 'drizzle-orm/sql/expressions/conditions';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { Executor } from './client.js';
import { agentListingTotals, listingTotals, type ListingStatus } from './schema.js';

/**
 * Counts read from the totals that the statistics trigger keeps per category and status, and per
 * agent and status (migrations 0008, 0016): a few rows, whatever the number of listings.
 */
export interface KeptCountFilter {
  status?: ListingStatus;
  /** A category id, or an expression giving one (null matches nothing). */
  categoryId?: string | SQL;
  /** Only listings with a commission set (true) or without one (false). */
  commissioned?: boolean;
}

function commissionedListings(commissioned: boolean | undefined): SQL {
  if (commissioned === undefined) return sql`${listingTotals.listings}`;
  return commissioned ? sql`${listingTotals.commissioned}` : sql`${listingTotals.listings} - ${listingTotals.commissioned}`;
}

/** Listings of a status and category (either optional), with or without a commission. */
export async function countListings(executor: Executor, filter: KeptCountFilter): Promise<number> {
  const [row] = await executor
    .select({ total: sql<number>`coalesce(sum(${commissionedListings(filter.commissioned)}), 0)`.mapWith(Number) })
    .from(listingTotals)
    .where(
      and(
        filter.status === undefined ? undefined : eq(listingTotals.status, filter.status),
        filter.categoryId === undefined ? undefined : eq(listingTotals.categoryId, filter.categoryId),
      ),
    );
  return row?.total ?? 0;
}

/** One agent's listings, of a status or all. */
export async function countAgentListings(executor: Executor, agentId: string, status?: ListingStatus): Promise<number> {
  const [row] = await executor
    .select({ total: sql<number>`coalesce(sum(${agentListingTotals.listings}), 0)`.mapWith(Number) })
    .from(agentListingTotals)
    .where(and(eq(agentListingTotals.agentId, agentId), status === undefined ? undefined : eq(agentListingTotals.status, status)));
  return row?.total ?? 0;
}
