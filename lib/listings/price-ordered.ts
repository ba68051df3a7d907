import { and, gte, lte } from 'drizzle-orm/sql/expressions/conditions';
import { asc, desc } from 'drizzle-orm/sql/expressions/select';
import type { MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { listings } from '../db/schema.js';
import {
  newestFirst,
  newestFirstTotal,
  throughFilterIndexes,
  walkInOrder,
  type ListingOrder,
  type NewestFirstSearch,
  type RowSelection,
} from './newest-first.js';
import { BOUND_MARGIN, PRICE_PROBE, PRICE_WALK_WINDOW, PROBE_PER_WANTED, PROBE_WINDOW, TRIED_SOURCES, WALK_PER_WANTED } from './read-tuning.js';
import { walkPostings, type PostedCondition } from './search-postings.js';

export type PriceDirection = 'asc' | 'desc';

/** Listings by price, newest first among equal prices, so pages are stable. */
export function priceOrder(direction: PriceDirection): ListingOrder {
  return [direction === 'asc' ? asc(listings.price) : desc(listings.price), ...newestFirst];
}

/** Candidates in price order a page can be read from. */
interface CandidateSource<Row> {
  /** About this many candidates: the source with the fewest is read first. */
  estimate: number;
  /** At most this many candidates (Infinity when not counted): a window this large held them all. */
  candidates: number;
  /** The page among the first `window` candidates. */
  walk: (window: number) => PromiseLike<Row[]>;
}

/** Selects listing prices only: for a price bound, or a price range. */
export const selectPrices: RowSelection<{ price: number }> = (source) => source.select({ price: listings.price }).from(listings).$dynamic();

/**
 * A price that about BOUND_MARGIN times the matches the page needs reach (at least that dear, or
 * that cheap): read from the matches among the newest PROBE_WINDOW of the search's `candidates`, a
 * sample of every price. Undefined when the probe holds no match, or the bound would keep nearly
 * every match.
 */
async function priceBound(executor: Executor, search: NewestFirstSearch, direction: PriceDirection, candidates: number): Promise<number | undefined> {
  const probe = { ...search, offset: 0, limit: PROBE_WINDOW, counted: false };
  const probed = await walkInOrder(executor, probe, selectPrices, PROBE_WINDOW, newestFirst);
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
  conditions: PostedCondition[],
): Promise<Row[]> {
  if (search.checked === undefined) {
    return selectRows(executor).where(search.indexed).orderBy(...order).limit(search.limit).offset(search.offset);
  }
  const window = Math.max(PRICE_WALK_WINDOW, WALK_PER_WANTED * (search.offset + search.limit));
  const probe = Math.max(PRICE_PROBE, PROBE_PER_WANTED * (search.offset + search.limit));
  const indexedCandidates = await search.indexedCount();
  const sources: Array<CandidateSource<Row>> = [
    ...conditions.map((condition) => ({
      ...condition,
      walk: (size: number) => walkPostings(executor, search, selectRows, condition, direction, size, order),
    })),
    { estimate: indexedCandidates, candidates: indexedCandidates, walk: (size: number) => walkInOrder(executor, search, selectRows, size, order) },
  ].sort((first, second) => first.estimate - second.estimate);
  let matchesSeen = search.offset > 0;
  for (const source of sources.slice(0, TRIED_SOURCES)) {
    // Every match is among each source's candidates.
    if (source.candidates === 0) return [];
    const probed = await source.walk(probe);
    if (probed.length === search.limit || source.candidates <= probe) return probed;
    if (probed.length === 0 && !matchesSeen) continue;
    matchesSeen = true;
    const walked = await source.walk(window);
    if (walked.length === search.limit || source.candidates <= window) return walked;
    break;
  }
  // No source's first candidates held a match: the matches are few, and their filters' indexes find them.
  if (!matchesSeen) return throughFilterIndexes(executor, search, selectRows, order);
  // Every match at least as dear (or as cheap) as the bound comes before any other: when they fill the page, it is the page.
  const bound = await priceBound(executor, search, direction, indexedCandidates);
  if (bound !== undefined) {
    const beyondBound = direction === 'asc' ? lte(listings.price, bound) : gte(listings.price, bound);
    const bounded = await throughFilterIndexes(executor, { ...search, checked: and(search.checked, beyondBound) }, selectRows, order);
    if (bounded.length === search.limit) return bounded;
  }
  return throughFilterIndexes(executor, search, selectRows, order);
}

/**
 * A page of listings by price (newest first among equal prices), and the total the newest-first
 * list gives for the same search, exact or flagged. The candidates come from the source with
 * the fewest: the postings of one of the search's posted `conditions` (see postedConditions()), or
 * the price index of its status and category (see PRICE_WALK_WINDOW).
 */
export async function priceOrderedPage<Row>(
  executor: Executor,
  search: NewestFirstSearch,
  direction: PriceDirection,
  selectRows: RowSelection<Row>,
  conditions: PostedCondition[],
): Promise<{ rows: Row[]; total?: MatchedTotal }> {
  const order = priceOrder(direction);
  const [rows, counted] = await Promise.all([
    pageByPrice(executor, { ...search, counted: false }, direction, order, selectRows, conditions),
    search.counted ? newestFirstTotal(executor, search) : undefined,
  ]);
  return { rows, total: counted };
}
