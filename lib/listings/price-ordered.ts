import { and, gte, lte } from 'drizzle-orm/sql/expressions/conditions';
import { asc, desc } from 'drizzle-orm/sql/expressions/select';
import { sql } from 'drizzle-orm/sql/sql';
import type { MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { listings } from '../db/schema.js';
import {
  newestFirst,
  newestFirstPage,
  PROBE_WINDOW,
  pageOf,
  selectIds,
  throughFilterIndexes,
  walkInOrder,
  type ListingOrder,
  type NewestFirstSearch,
  type RowSelection,
} from './newest-first.js';
import { cheapestPostedCondition, walkPostings, type PostedSearch } from './search-postings.js';

export type PriceDirection = 'asc' | 'desc';

/**
 * The first candidates in price order a filtered page reads and checks: the listings of one of
 * the search's words or attribute filters, from its postings (search-postings.ts), or else every
 * listing. Matches that are common among them fill a page within them. Matches that cluster
 * elsewhere in the price order (phones, when laptops are the dearest listings), and those the
 * other filters reject nearly always (a word and a brand it never meets), are found through their
 * filters' own indexes instead: those beyond a price bound first (see priceBound()), every match
 * sorted when that bound keeps too few.
 */
const PRICE_WALK_WINDOW = 2_000;

/**
 * The first of a posted condition's candidates read before the rest of PRICE_WALK_WINDOW: when
 * none of them matches, the other filters reject nearly all of its listings, and the filters' own
 * indexes find the few that match without a longer walk.
 */
const POSTED_PROBE = 500;

/** Selects listing prices only: for a price bound, or a price range. */
export const selectPrices: RowSelection<{ price: number }> = (source, matched) => source.select({ price: listings.price, matched }).from(listings).$dynamic();

/**
 * How many times the matches a page needs a price bound should keep, by the probe's estimate: room
 * for chance, since a bound that keeps too few is tried in vain.
 */
const BOUND_MARGIN = 3;

/**
 * A price that about BOUND_MARGIN times the matches the page needs reach (at least that dear, or
 * that cheap): read from the matches among the newest PROBE_WINDOW candidates, a sample of every
 * price. Undefined when the probe holds no match, or the bound would keep nearly every match.
 */
async function priceBound(executor: Executor, search: NewestFirstSearch, direction: PriceDirection): Promise<number | undefined> {
  const probe = { ...search, offset: 0, limit: PROBE_WINDOW, counted: false };
  const [probed, candidates] = await Promise.all([walkInOrder(executor, probe, selectPrices, PROBE_WINDOW, newestFirst), search.indexedCount()]);
  const prices = probed.map((row) => Number(row.price)).sort((a, b) => (direction === 'asc' ? a - b : b - a));
  // Each match of the probe stands for this many matches of every candidate.
  const share = Math.max(candidates, PROBE_WINDOW) / PROBE_WINDOW;
  const rank = Math.floor((BOUND_MARGIN * (search.offset + search.limit)) / share);
  return rank < prices.length ? prices[rank] : undefined;
}

/** The page in price order, without its total. */
async function pageByPrice<Row>(
  executor: Executor,
  search: NewestFirstSearch,
  direction: PriceDirection,
  order: ListingOrder,
  selectRows: RowSelection<Row>,
  posted: PostedSearch,
): Promise<Row[]> {
  if (search.checked === undefined) {
    return pageOf(await selectRows(executor, sql`null`).where(search.indexed).orderBy(...order).limit(search.limit).offset(search.offset));
  }
  const window = Math.max(PRICE_WALK_WINDOW, 4 * (search.offset + search.limit));
  const condition = await cheapestPostedCondition(executor, posted);
  if (condition !== undefined) {
    const probe = Math.max(POSTED_PROBE, 2 * (search.offset + search.limit));
    const probed = await walkPostings(executor, search, selectRows, condition, direction, probe, order);
    // Every candidate was within the window when the condition's candidates all fit in it.
    if (probed.length === search.limit || condition.candidates <= probe) return pageOf(probed);
    if (probed.length === 0 && search.offset === 0) return (await throughFilterIndexes(executor, search, selectRows, order)).rows;
    const walked = await walkPostings(executor, search, selectRows, condition, direction, window, order);
    if (walked.length === search.limit || condition.candidates <= window) return pageOf(walked);
    // The condition's first candidates in price order held too few matches: the first listings of all would hold fewer still.
  } else {
    const walked = await walkInOrder(executor, search, selectRows, window, order);
    if (walked.length === search.limit) return pageOf(walked);
  }
  // Every match at least as dear (or as cheap) as the bound comes before any other: when they fill the page, it is the page.
  const bound = await priceBound(executor, search, direction);
  if (bound !== undefined) {
    const beyondBound = direction === 'asc' ? lte(listings.price, bound) : gte(listings.price, bound);
    const bounded = await throughFilterIndexes(executor, { ...search, checked: and(search.checked, beyondBound) }, selectRows, order);
    if (bounded.rows.length === search.limit) return bounded.rows;
  }
  return (await throughFilterIndexes(executor, search, selectRows, order)).rows;
}

/**
 * A page of listings by price (newest first among equal prices), and the total the newest-first
 * list gives for the same search, exact or flagged (D31). Its words and attribute terms (`posted`)
 * are read in price order from their postings first (see cheapestPostedCondition()).
 */
export async function priceOrderedPage<Row>(
  executor: Executor,
  search: NewestFirstSearch,
  direction: PriceDirection,
  selectRows: RowSelection<Row>,
  posted: PostedSearch,
): Promise<{ rows: Row[]; total?: MatchedTotal }> {
  const order = [direction === 'asc' ? asc(listings.price) : desc(listings.price), ...newestFirst];
  const [rows, counted] = await Promise.all([
    pageByPrice(executor, { ...search, counted: false }, direction, order, selectRows, posted),
    search.counted ? newestFirstPage(executor, { ...search, offset: 0, limit: 1 }, selectIds) : undefined,
  ]);
  return { rows, total: counted?.total };
}
