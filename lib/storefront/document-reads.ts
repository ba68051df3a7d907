import { and, eq, gte, inArray, isNull, lt, lte } from 'drizzle-orm/sql/expressions/conditions';
import { asc, desc } from 'drizzle-orm/sql/expressions/select';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import { boundedTotal, cappedTotal, EXACT_TOTAL_LIMIT, type MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';
import { listings } from '../db/schema.js';
import { throughBitmapScans, type ListingOrder, type RowSelection } from '../listings/newest-first.js';
import { allOf, anyTermOf } from './document-query.js';
import { daySpans, daySpansFrom, MS_PER_DAY, priceSpans, type PriceShares } from './order-spans.js';
import { catalogueShares, sampledShares, shareOfRange } from './price-share.js';
import { readOncePer } from './read-once.js';

/**
 * Reads of the available listings matching a storefront search through their one search index
 * (`listings_available_searchDocument_idx`, migrations 0030 and 0033): a query of their documents
 * and a price range, in an order, a window of the order's key at a time. Prices and windows are
 * read as the spans of creation days and prices the documents hold (order-spans.ts).
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
  /** How many available listings there are: how many a window of a share of the order's key holds. */
  available: number;
  /** The day after the newest available listing's creation day (see dayAfterNewest()): where a window of the newest ends. */
  dayAfterNewest: number;
  /** The price range holds most listings: each listing's price is checked, and no span of prices is read. */
  pricesChecked?: boolean;
  /** The share of the listings priced within a stretch, by the price column's statistics; undefined without a price range, or before there are statistics. */
  catalogue?: PriceShares;
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
 * Whether a slice of `share` of the creation days is worth its spans to a count: while it holds
 * fewer listings than the words can match. A count reads no more rows than it counts either way,
 * and the index reads the listings of the rarest word: past that, checking each against the spans
 * only adds to it (`brand new sealed` counted 10,000 of its 92,000 matches in 86 ms whole, in
 * 129 ms within a slice of 266,000 listings). A page is read in a window all the same, which
 * spares it reading every match.
 */
function slicePays(search: DocumentSearch, share: number): boolean {
  return share < WHOLE_RANGE && (search.most === undefined || share * search.available < search.most);
}

/**
 * Matches known to be at most this many are read whole, without a window: a window's spans are
 * terms the index checks for every listing it reads, and a window too narrow is read again, which
 * together cost more than reading this many matches.
 */
const WINDOWED_FROM = 5_000;

/**
 * How many of the newest matches a price order samples to place its window: a word's listings
 * are priced unlike the catalogue (phones dearer than cables), so the column's own histogram
 * would misplace it.
 */
const PRICE_SAMPLE = 400;

/**
 * A listing's price and creation time as each row the search index finds gives them, to check
 * a range on, which no index of those columns may serve. Misjudging how many listings a query of
 * the documents finds, the planner would otherwise AND its bitmap with every listing of the range
 * from the column's own index (`q=galaxy`, dearest first, page 150 at a million listings: 155,000
 * prices gathered to keep 9,600 matches, 282 ms against 95 ms).
 */
const priceOfRow = sql`(${listings.price} + 0)`;
const createdAtOfRow = sql`(${listings.createdAt} + interval '0 seconds')`;

/** Available listings out of the trash: what the search index holds (its predicate). */
const available = and(eq(listings.status, 'AVAILABLE'), isNull(listings.deletedAt))!;

/**
 * Part of the order key's range a read keeps to: the spans of creation days holding it, as tsquery
 * text; the prices it holds, with the shares of a sample of the matches priced within a stretch;
 * creation times checked on the rows themselves.
 */
interface Window {
  days?: string;
  prices?: { min?: number; max?: number; sampled: PriceShares; catalogue?: PriceShares };
  createdBefore?: string;
}

/** The tighter of two bounds by `pick` (Math.max for lower bounds, Math.min for upper ones), either of which may be missing. */
const tighter = (pick: (a: number, b: number) => number, a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : pick(a, b));

/**
 * The share of the listings the query's other terms find that are priced within a stretch, for a
 * price window of a sample of the matches: within the price filter, the sample's share of the
 * filter's own share; outside it, the price column's statistics.
 */
function sharesAround(search: Pick<DocumentSearch, 'priceMin' | 'priceMax'>, sampled: PriceShares, catalogue: PriceShares): PriceShares {
  const filterMin = search.priceMin ?? -Infinity;
  const filterMax = search.priceMax ?? Infinity;
  const filterShare = shareOfRange(catalogue, search.priceMin, search.priceMax);
  const outside = (from: number, to: number) => (to < from ? 0 : catalogue(from, to));
  return (from, to) =>
    (Math.max(from, filterMin) <= Math.min(to, filterMax) ? sampled(Math.max(from, filterMin), Math.min(to, filterMax)) * filterShare : 0) +
    outside(from, Math.min(to, filterMin - 0.01)) +
    outside(Math.max(from, filterMax + 0.01), to);
}

/**
 * What the spans of prices from `priceMin` to `priceMax` may hold beyond it, to be covered by
 * fewer of them (priceSpans()): only when the query's other terms find fewer listings than those
 * prices hold, so that the index reads the spans for each listing those terms find. Where the
 * spans hold fewer, the index reads them as they are and advances the other terms to each, and
 * fewer spans holding more only add listings (`brand new sealed` from 212,348 birr: 126 matches in
 * 8 ms as 20 spans, 2,512 in 31 ms as 5). Undefined, for spans that hold nothing beyond, when
 * that is so or the statistics or estimate are missing.
 */
function sharesBeyond(search: Pick<DocumentSearch, 'priceMin' | 'priceMax' | 'catalogue'> & Partial<Pick<DocumentSearch, 'estimate' | 'available'>>, window: Window | undefined, priceMin: number | undefined, priceMax: number | undefined): PriceShares | undefined {
  const { estimate, available } = search;
  const catalogue = window?.prices?.catalogue ?? search.catalogue;
  if (catalogue === undefined || estimate === undefined || available === undefined) return undefined;
  const found = estimate / Math.max(shareOfRange(catalogue, search.priceMin, search.priceMax), 1 / available);
  if (found >= shareOfRange(catalogue, priceMin, priceMax) * available) return undefined;
  return window?.prices === undefined ? catalogue : sharesAround(search, window.prices.sampled, catalogue);
}

/**
 * The listings matching the search (within `window`), as a condition the search index serves: the
 * price range and a window's prices as one range, read as the cheapest spans of prices covering it
 * (a range that holds most listings, filtering alone, as none), each listing's price checked as well.
 */
export function documentMatches(
  search: Pick<DocumentSearch, 'query' | 'priceMin' | 'priceMax' | 'pricesChecked' | 'catalogue'> & Partial<Pick<DocumentSearch, 'estimate' | 'available'>>,
  window?: Window,
): SQL {
  const priceMin = tighter(Math.max, search.priceMin, window?.prices?.min);
  const priceMax = tighter(Math.min, search.priceMax, window?.prices?.max);
  const priced = priceMin !== undefined || priceMax !== undefined;
  const prices = priced ? priceSpans(priceMin, priceMax, sharesBeyond(search, window, priceMin, priceMax)) : [];
  if (priced && prices.length === 0) return sql`false`;
  const spanned = window?.prices !== undefined || (priced && !search.pricesChecked);
  const query = allOf(search.query, spanned ? anyTermOf(prices) : undefined, window?.days);
  return and(
    available,
    query === undefined ? undefined : sql`${listings.searchDocument} @@ ${query}::tsquery`,
    priceMin === undefined ? undefined : gte(priceOfRow, priceMin),
    priceMax === undefined ? undefined : lte(priceOfRow, priceMax),
    window?.createdBefore === undefined ? undefined : lt(createdAtOfRow, window.createdBefore),
  )!;
}

export function orderOf(order: DocumentOrder): ListingOrder {
  const newest = [desc(listings.createdAt), desc(listings.id)];
  if (order === 'newest') return newest;
  return [order === 'price_asc' ? asc(listings.price) : desc(listings.price), ...newest];
}

/**
 * The creation day (in whole days since 1970-01-01 UTC) that about `share` of the listings reach,
 * newest first, from the planner's histogram of the column; undefined without one.
 */
async function newestBound(executor: Executor, share: number): Promise<number | undefined> {
  const [row] = await queryRows<{ day: number | null }>(
    executor,
    sql`select floor(extract(epoch from (bounds.values)[least(cardinality(bounds.values), greatest(1, floor((1 - ${share}::float8) * cardinality(bounds.values))::int))]) / 86400)::int as day
      from pg_stats, lateral (select histogram_bounds::text::timestamptz[] as values) as bounds
      where schemaname = current_schema() and tablename = 'listings' and attname = 'createdAt'`,
  );
  return row?.day ?? undefined;
}

/** The day after the newest available listing's creation day (in whole days since 1970-01-01 UTC): where a window of the newest ends. */
export async function dayAfterNewest(executor: Executor): Promise<number> {
  const [row] = await queryRows<{ day: number | null }>(
    executor,
    sql`select floor(extract(epoch from max(${listings.createdAt})) / 86400)::int + 1 as day from ${listings} where ${listings.status} = 'AVAILABLE'`,
  );
  return row?.day ?? 0;
}

/**
 * The listings created from day `from` up to, not including, day `until`, as a window; when
 * `until` is the day after the newest listing's, every listing from `from` on, as the fewest spans.
 */
function daysWindow(from: number, until: number, reachesNewest: boolean): Window | undefined {
  const spans = reachesNewest ? daySpansFrom(from, until) : daySpans(from, until);
  return spans.length === 0 ? undefined : { days: anyTermOf(spans) };
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

/** The window of the order's key that about a share of the matches reach first; undefined when there is none to place. */
type WindowAt = (share: number) => Promise<Window | undefined>;

/**
 * The prices of the newest PRICE_SAMPLE matches of a search, read once for both price orders (a
 * filter panel asks the cheapest and the dearest match at once); undefined when they are all the
 * matches, or when how far back in time they reach says the matches are at most WINDOWED_FROM.
 */
const newestSample = readOncePer(readNewestSample);

/**
 * The price column's statistics (catalogueShares()) for a search without a price range, which
 * did not read them: read only for price windows, once for both price orders.
 */
const catalogueOf = readOncePer((executor: Executor, _search: DocumentSearch) => catalogueShares(executor));

async function readNewestSample(executor: Executor, search: DocumentSearch): Promise<number[] | undefined> {
  const sample = await documentKeys(executor, search, 'newest', { offset: 0, limit: PRICE_SAMPLE });
  if (sample.length < PRICE_SAMPLE) return undefined;
  const reach = await newerShare(executor, sample.at(-1)!.createdAt);
  if (reach !== undefined && reach > 0 && PRICE_SAMPLE / reach <= WINDOWED_FROM) return undefined;
  return sample.map((row) => Number(row.price));
}

/**
 * The price windows, cheapest or dearest first, from the prices of the newest PRICE_SAMPLE
 * matches (newestSample()): the prices up to or from a sampled price, whose spans the sample's
 * shares weigh, each listing's price checked as well. None when there is no such sample: the
 * matches are read whole.
 */
async function priceWindows(executor: Executor, search: DocumentSearch, order: 'price_asc' | 'price_desc'): Promise<WindowAt> {
  const none: WindowAt = async () => undefined;
  const [sampled, catalogue] = await Promise.all([newestSample(executor, search), search.catalogue ?? catalogueOf(executor, search)]);
  if (sampled === undefined) return none;
  const prices = [...sampled].sort((a, b) => (order === 'price_asc' ? a - b : b - a));
  const shares = sampledShares(sampled);
  return async (share) => {
    const rank = Math.ceil(share * prices.length);
    if (rank >= prices.length) return undefined;
    const bound = prices[rank]!;
    return { prices: order === 'price_asc' ? { max: bound, sampled: shares, catalogue } : { min: bound, sampled: shares, catalogue } };
  };
}

/** The windows of the newest listings, by the creation times' histogram: whole days, so no row is checked. */
function newestWindows(executor: Executor, until: number): WindowAt {
  return async (share) => {
    const from = await newestBound(executor, share);
    return from === undefined ? undefined : daysWindow(from, until, true);
  };
}

/** The windows of the order's key: by the column's histogram for creation times, by a sample of the matches for prices. */
async function windowsOf(executor: Executor, search: DocumentSearch, order: DocumentOrder): Promise<WindowAt> {
  return order === 'newest' ? newestWindows(executor, search.dayAfterNewest) : priceWindows(executor, search, order);
}

/**
 * How many listings match, by a count of the same matches run beside a page's reads, once it has
 * come back; undefined before that, or when nothing is counted.
 */
export type CountedBeside = () => MatchedTotal | undefined;

/**
 * What a count beside a page says of the page's reads still to come: none are made when it found
 * none (words, attributes or a category that never meet); the matches are read whole when it
 * found no more than the page reaches, which no window could read fewer of (`q=ipad` among
 * phones: 2 matches, which windows of the newest sought in eight reads); undefined otherwise.
 */
function countSays(counted: MatchedTotal | undefined, wanted: number): 'none' | 'whole' | undefined {
  if (counted === undefined || !counted.exact) return undefined;
  if (counted.total === 0) return 'none';
  return counted.total <= wanted ? 'whole' : undefined;
}

/** Reads the page within a window of the order's key (undefined: among every match). */
type WindowRead<Row> = (window: Window | undefined) => Promise<Row[]>;

/**
 * A page of the matches in `order`, read by `read`. The matches that come first in the order are
 * found in a window of its key (listings at least this new, this cheap or this dear) sized from
 * the estimate: by the column's histogram for creation times, by a sample of the matches for
 * prices. The index intersects it with the query before any listing is read. A window that holds
 * fewer matches than the page needs is read again wider, and past WHOLE_RANGE the matches are
 * read whole, as they are when the kept counts say they are few (WINDOWED_FROM).
 */
async function inWindows<Row>(
  executor: Executor,
  search: DocumentSearch,
  order: DocumentOrder,
  page: { offset: number; limit: number },
  read: WindowRead<Row>,
  counted: CountedBeside,
): Promise<Row[]> {
  const wanted = page.offset + page.limit;
  if (search.most !== undefined && search.most <= WINDOWED_FROM) return read(undefined);
  let windowAt: WindowAt | undefined;
  for (let share = (WINDOW_ROOM * wanted) / Math.max(search.estimate, 1); share < WHOLE_RANGE; ) {
    const says = countSays(counted(), wanted);
    if (says === 'none') return [];
    if (says === 'whole') break;
    windowAt ??= await windowsOf(executor, search, order);
    const window = await windowAt(share);
    if (window === undefined) break;
    const rows = await read(window);
    if (rows.length === page.limit) return rows;
    // No match at all in the window says the estimate is far off (words that seldom meet): a
    // wider window would most likely hold none either, and the matches are read whole at once.
    if (rows.length === 0 && page.offset === 0) break;
    // Read from the first match, a short window's rows are every match it holds: their density
    // says how wide a window holds the page, when that is wider than the usual growth.
    const held = page.offset === 0 ? (share * WINDOW_ROOM * wanted) / rows.length : 0;
    share = Math.max(share * WINDOW_GROWTH, held);
  }
  return countSays(counted(), wanted) === 'none' ? [] : read(undefined);
}

/**
 * A page of the matches in `order` (see inWindows()), its ids found first, sorting only the
 * order's keys of every match before it, and then its rows: sorting whole rows (descriptions,
 * attributes) of a deep page's 12,700 matches took a third of its 53 ms at a million listings.
 */
export function documentPage<Row>(
  executor: Executor,
  search: DocumentSearch,
  order: DocumentOrder,
  page: { offset: number; limit: number },
  selectRows: RowSelection<Row>,
  counted: CountedBeside = () => undefined,
): Promise<Row[]> {
  const read: WindowRead<Row> = (window) =>
    throughBitmapScans(executor, async (tx) => {
      const pageIds = tx.select({ id: listings.id }).from(listings).where(documentMatches(search, window)).orderBy(...orderOf(order)).limit(page.limit).offset(page.offset);
      return selectRows(tx).where(inArray(listings.id, pageIds)).orderBy(...orderOf(order));
    });
  return inWindows(executor, search, order, page, read, counted);
}

/** A match's keys in every order: its price and its creation time (as text, to the microsecond). */
export interface OrderKeys {
  price: number;
  createdAt: string;
}

/**
 * The order's keys of a page of the matches in `order` (see inWindows()), read with the matches
 * themselves: the keys are what the sort reads anyway, so finding the page's ids first and then
 * its rows would only read each row twice (the 400 newest matches of `charger` at a million
 * listings: 20 ms so, 16 ms at once).
 */
export function documentKeys(executor: Executor, search: DocumentSearch, order: DocumentOrder, page: { offset: number; limit: number }): Promise<OrderKeys[]> {
  const read: WindowRead<OrderKeys> = (window) =>
    throughBitmapScans(executor, (tx) =>
      tx
        .select({ price: listings.price, createdAt: sql<string>`${listings.createdAt}::text` })
        .from(listings)
        .where(documentMatches(search, window))
        .orderBy(...orderOf(order))
        .limit(page.limit)
        .offset(page.offset),
    );
  return inWindows(executor, search, order, page, read, () => undefined);
}

/**
 * How many listings match, counted through the search index up to EXACT_TOTAL_LIMIT. Matches
 * known to be few are counted at once. Otherwise they are counted a slice of creation days at a
 * time, newest first, each slice sized from the estimate to hold the rest of the limit, so that
 * words many listings hold are intersected within a slice instead of over every listing; the
 * count stops once it reaches the limit.
 */
export async function documentTotal(executor: Executor, search: DocumentSearch): Promise<MatchedTotal> {
  const countWithin = (slice: Window | undefined, limit: number) =>
    throughBitmapScans(executor, (tx) => boundedTotal(tx, sql`select 1 from ${listings} where ${documentMatches(search, slice)}`, limit));
  if (search.most !== undefined && search.most <= WINDOWED_FROM) return countWithin(undefined, EXACT_TOTAL_LIMIT);
  const afterNewest = search.dayAfterNewest;
  let counted = 0;
  let newer = afterNewest;
  for (let share = (WINDOW_ROOM * EXACT_TOTAL_LIMIT) / Math.max(search.estimate, 1); slicePays(search, share); share *= WINDOW_GROWTH) {
    const from = await newestBound(executor, share);
    if (from === undefined) break;
    const slice = daysWindow(from, newer, newer === afterNewest);
    if (slice !== undefined) counted += (await countWithin(slice, EXACT_TOTAL_LIMIT - counted)).total;
    if (counted >= EXACT_TOTAL_LIMIT) return cappedTotal(counted);
    newer = Math.min(newer, from);
  }
  // The older rest is most of the range: its spans would cost the index more than checking each
  // match's creation time costs the count.
  const rest: Window | undefined = newer === afterNewest ? undefined : { createdBefore: new Date(newer * MS_PER_DAY).toISOString() };
  return cappedTotal(counted + (await countWithin(rest, EXACT_TOTAL_LIMIT - counted)).total);
}
