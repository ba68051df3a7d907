import { and } from 'drizzle-orm/sql/expressions/conditions';
import { asc, desc } from 'drizzle-orm/sql/expressions/select';
import { sql } from 'drizzle-orm/sql/sql';
import type { MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { listings } from '../db/schema.js';
import { newestFirstPage, pageOf, selectIds, type NewestFirstSearch, type RowSelection } from './newest-first.js';

export type PriceDirection = 'asc' | 'desc';

/**
 * A page of listings by price (newest first among equal prices): the price index walked for
 * common matches, the filters' indexes and a sort for rare ones, as the planner judges. The total
 * is the one the newest-first list gives for the same search, exact or flagged (D31).
 */
export async function priceOrderedPage<Row>(
  executor: Executor,
  search: NewestFirstSearch,
  direction: PriceDirection,
  selectRows: RowSelection<Row>,
): Promise<{ rows: Row[]; total?: MatchedTotal }> {
  const byPrice = direction === 'asc' ? asc(listings.price) : desc(listings.price);
  const [page, counted] = await Promise.all([
    selectRows(executor, sql`null`)
      .where(and(search.indexed, search.checked))
      .orderBy(byPrice, desc(listings.createdAt), desc(listings.id))
      .limit(search.limit)
      .offset(search.offset),
    search.counted
      ? newestFirstPage(executor, { ...search, offset: 0, limit: 1 }, selectIds)
      : undefined,
  ]);
  return { rows: pageOf(page), total: counted?.total };
}
