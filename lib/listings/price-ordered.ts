import { asc, desc, sql } from 'drizzle-orm';
import type { MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { listings } from '../db/schema.js';
import {
  newestFirst,
  newestFirstPage,
  pageOf,
  selectIds,
  throughFilterIndexes,
  walkInOrder,
  type ListingOrder,
  type NewestFirstSearch,
  type RowSelection,
} from './newest-first.js';

export type PriceDirection = 'asc' | 'desc';

/**
 * The first listings in price order a filtered page reads and checks. Matches that are common
 * and spread over every price fill a page within them; matches that cluster elsewhere in the
 * price order (phones, when laptops are the dearest listings) would take a walk through most of
 * the table, and are found through their filters' own indexes and sorted instead.
 */
export const PRICE_WALK_WINDOW = 2_000;

/** The page in price order, without its total. */
async function pageByPrice<Row>(executor: Executor, search: NewestFirstSearch, order: ListingOrder, selectRows: RowSelection<Row>): Promise<Row[]> {
  if (search.checked === undefined) {
    return pageOf(await selectRows(executor, sql`null`).where(search.indexed).orderBy(...order).limit(search.limit).offset(search.offset));
  }
  const window = Math.max(PRICE_WALK_WINDOW, 4 * (search.offset + search.limit));
  const walked = await walkInOrder(executor, search, selectRows, window, order);
  if (walked.length === search.limit) return pageOf(walked);
  return (await throughFilterIndexes(executor, search, selectRows, order)).rows;
}

/**
 * A page of listings by price (newest first among equal prices), and the total the newest-first
 * list gives for the same search, exact or flagged (D31).
 */
export async function priceOrderedPage<Row>(
  executor: Executor,
  search: NewestFirstSearch,
  direction: PriceDirection,
  selectRows: RowSelection<Row>,
): Promise<{ rows: Row[]; total?: MatchedTotal }> {
  const order = [direction === 'asc' ? asc(listings.price) : desc(listings.price), ...newestFirst];
  const [rows, counted] = await Promise.all([
    pageByPrice(executor, { ...search, counted: false }, order, selectRows),
    search.counted ? newestFirstPage(executor, { ...search, offset: 0, limit: 1 }, selectIds) : undefined,
  ]);
  return { rows, total: counted?.total };
}
