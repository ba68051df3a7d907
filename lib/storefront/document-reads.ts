import { and, eq, gte, isNull, lte } from 'drizzle-orm/sql/expressions/conditions';
import { asc, desc } from 'drizzle-orm/sql/expressions/select';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import { boundedTotal, cappedTotal, EXACT_TOTAL_LIMIT, type MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';
import { listings } from '../db/schema.js';
import { throughBitmapScans, type ListingOrder, type RowSelection } from '../listings/newest-first.js';

/**
 * Reads of the available listings matching a storefront search through their one search index
 * (`listings_available_searchDocument_idx`, migration 0030): a query of their documents and a
 * price range, in an order, a window of the order's key at a time.
 */
export interface DocumentSearch {
  /** Words, attribute terms, amenities and the category, as tsquery text; undefined when nothing but prices filters. */
  query: string | undefined;
  priceMin?: number;
  priceMax?: number;
  /** About how many listings match: how wide the first window is. */
  estimate: number;
  /** At most how many listings match, when the kept counts tell. */
  most?: number;
}

export type DocumentOrder = 'newest' | 'price_asc' | 'price_desc';

/**
 * A first window holds about this many times the matches the page needs, at the estimated
 * density: room for chance, since matches are not spread evenly over the order's key.
 */
const WINDOW_ROOM = 1.5;

/** A window that held too few matches is read again this many times as wide. */
const WINDOW_GROWTH = 3;

/** From this share of the order key's range on, the whole range is read: a window would save little. */
const WHOLE_RANGE = 0.5;

/**
 * Matches known to be at most this many are read whole, without a window: a window costs the
 * index an entry for every listing in it, whatever the query, which is more than reading this
 * many matches costs.
 */
const WINDOWED_FROM = 5_000;

/**
 * How many of the newest matches a price order samples to place its window: a word's listings
 * are priced unlike the catalogue (phones dearer than cables), so the column's own histogram
 * would misplace it.
 */
const PRICE_SAMPLE = 400;

/** Available listings out of the trash: what the search index holds (its predicate). */
const available = and(eq(listings.status, 'AVAILABLE'), isNull(listings.deletedAt))!;

/** The listings matching the search, as a condition the search index serves whole. */
export function documentMatches(search: Pick<DocumentSearch, 'query' | 'priceMin' | 'priceMax'>): SQL {
  return and(
    available,
    search.query === undefined ? undefined : sql`${listings.searchDocument} @@ ${search.query}::tsquery`,
    search.priceMin === undefined ? undefined : gte(listings.price, search.priceMin),
    search.priceMax === undefined ? undefined : lte(listings.price, search.priceMax),
  )!;
}

export function orderOf(order: DocumentOrder): ListingOrder {
  const newest = [desc(listings.createdAt), desc(listings.id)];
  if (order === 'newest') return newest;
  return [order === 'price_asc' ? asc(listings.price) : desc(listings.price), ...newest];
}

/**
 * The creation time that about `share` of the listings reach, newest first, from the planner's
 * histogram of the column; undefined without one.
 */
async function newestBound(executor: Executor, share: number): Promise<string | undefined> {
  const [row] = await queryRows<{ bound: string | null }>(
    executor,
    sql`select (bounds.values)[least(cardinality(bounds.values), greatest(1, floor((1 - ${share}::float8) * cardinality(bounds.values))::int))] as bound
      from pg_stats, lateral (select histogram_bounds::text::text[] as values) as bounds
      where schemaname = current_schema() and tablename = 'listings' and attname = 'createdAt'`,
  );
  return row?.bound ?? undefined;
}

/** The share of the listings created at `createdAt` or later, from the planner's histogram of the column; undefined without one. */
async function newerShare(executor: Executor, createdAt: string): Promise<number | undefined> {
  const [row] = await queryRows<{ share: number | null }>(
    executor,
    sql`select (select count(*) from unnest(bounds.values) as bound where bound >= ${createdAt}::timestamptz)::float8 / greatest(cardinality(bounds.values), 1) as share
      from pg_stats, lateral (select histogram_bounds::text::timestamptz[] as values) as bounds
      where schemaname = current_schema() and tablename = 'listings' and attname = 'createdAt'`,
  );
  return row?.share ?? undefined;
}

const selectSample: RowSelection<{ price: number; createdAt: string }> = (source) =>
  source.select({ price: listings.price, createdAt: sql<string>`${listings.createdAt}::text` }).from(listings).$dynamic();

/** Where the window of the order's key that about a share of the matches reach first ends; undefined when there is no window to place. */
type WindowBound = (share: number) => Promise<string | undefined>;

/**
 * The bounds of price windows, cheapest or dearest first, from the prices of the newest
 * PRICE_SAMPLE matches, read once; none when they are all the matches, or too few to tell, or
 * when how far back in time they reach says the matches are at most WINDOWED_FROM: a price window
 * gathers every listing of its prices, matching or not, which costs more than reading that many
 * matches whole.
 */
async function priceBounds(executor: Executor, search: DocumentSearch, order: 'price_asc' | 'price_desc'): Promise<WindowBound> {
  const none: WindowBound = async () => undefined;
  const sample = await documentPage(executor, search, 'newest', { offset: 0, limit: PRICE_SAMPLE }, selectSample);
  if (sample.length < PRICE_SAMPLE) return none;
  const reach = await newerShare(executor, sample.at(-1)!.createdAt);
  if (reach !== undefined && reach > 0 && PRICE_SAMPLE / reach <= WINDOWED_FROM) return none;
  const prices = sample.map((row) => Number(row.price)).sort((a, b) => (order === 'price_asc' ? a - b : b - a));
  return async (share) => {
    const rank = Math.ceil(share * prices.length);
    return rank < prices.length ? String(prices[rank]) : undefined;
  };
}

/** The bounds of the windows of the order's key: by the column's histogram for creation times, by a sample of the matches for prices. */
async function windowBounds(executor: Executor, search: DocumentSearch, order: DocumentOrder): Promise<WindowBound> {
  return order === 'newest' ? (share) => newestBound(executor, share) : priceBounds(executor, search, order);
}

function withinWindow(order: DocumentOrder, bound: string): SQL {
  if (order === 'newest') return sql`${listings.createdAt} >= ${bound}::timestamptz`;
  return order === 'price_asc' ? sql`${listings.price} <= ${bound}::numeric` : sql`${listings.price} >= ${bound}::numeric`;
}

/**
 * A page of the matches in `order`. The matches that come first in the order are found in a
 * window of its key (listings at least this new, this cheap or this dear) sized from the estimate:
 * by the column's histogram for creation times, by a sample of the matches for prices. The index
 * intersects it with the query before any listing is read. A window that holds fewer matches
 * than the page needs is read again wider, and past WHOLE_RANGE the matches are read whole, as
 * they are when the kept counts say they are few (WINDOWED_FROM).
 */
export async function documentPage<Row>(
  executor: Executor,
  search: DocumentSearch,
  order: DocumentOrder,
  page: { offset: number; limit: number },
  selectRows: RowSelection<Row>,
): Promise<Row[]> {
  const wanted = page.offset + page.limit;
  const read = (window: SQL | undefined) =>
    throughBitmapScans(executor, async (tx) =>
      selectRows(tx).where(and(documentMatches(search), window)).orderBy(...orderOf(order)).limit(page.limit).offset(page.offset),
    );
  if (search.most !== undefined && search.most <= WINDOWED_FROM) return read(undefined);
  let boundAt: WindowBound | undefined;
  for (let share = (WINDOW_ROOM * wanted) / Math.max(search.estimate, 1); share < WHOLE_RANGE; share *= WINDOW_GROWTH) {
    boundAt ??= await windowBounds(executor, search, order);
    const bound = await boundAt(share);
    if (bound === undefined) break;
    const rows = await read(withinWindow(order, bound));
    if (rows.length === page.limit) return rows;
  }
  return read(undefined);
}

/**
 * How many listings match, counted through the search index up to EXACT_TOTAL_LIMIT. Matches
 * known to be few are counted at once. Otherwise they are counted a slice of creation times at a
 * time, newest first, each slice sized from the estimate to hold the rest of the limit, so that
 * words many listings hold are intersected within a slice instead of over every listing; the
 * count stops once it reaches the limit.
 */
export async function documentTotal(executor: Executor, search: DocumentSearch): Promise<MatchedTotal> {
  const countWithin = (slice: SQL | undefined, limit: number) =>
    throughBitmapScans(executor, (tx) => boundedTotal(tx, sql`select 1 from ${listings} where ${and(documentMatches(search), slice)}`, limit));
  if (search.most !== undefined && search.most <= WINDOWED_FROM) return countWithin(undefined, EXACT_TOTAL_LIMIT);
  let counted = 0;
  let newer: string | undefined;
  for (let share = (WINDOW_ROOM * EXACT_TOTAL_LIMIT) / Math.max(search.estimate, 1); share < WHOLE_RANGE; share *= WINDOW_GROWTH) {
    const bound = await newestBound(executor, share);
    if (bound === undefined) break;
    const slice = and(withinWindow('newest', bound), newer === undefined ? undefined : sql`${listings.createdAt} < ${newer}::timestamptz`);
    counted += (await countWithin(slice, EXACT_TOTAL_LIMIT - counted)).total;
    if (counted >= EXACT_TOTAL_LIMIT) return cappedTotal(counted);
    newer = bound;
  }
  const rest = newer === undefined ? undefined : sql`${listings.createdAt} < ${newer}::timestamptz`;
  return cappedTotal(counted + (await countWithin(rest, EXACT_TOTAL_LIMIT - counted)).total);
}
