import { and, eq } from 'drizzle-orm/sql/expressions/conditions';
import { sql } from 'drizzle-orm/sql/sql';
import { cappedTotal, EXACT_TOTAL_LIMIT, type MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { countListings } from '../db/kept-totals.js';
import { listings } from '../db/schema.js';
import { newestFirst, newestFirstPage, type NewestFirstSearch, type RowSelection } from '../listings/newest-first.js';
import { notTrashed } from '../listings/queries.js';
import { DEFERRED_FROM } from '../listings/read-tuning.js';
import { allOf, filtersQuery, searchQuery, type WordMatch } from './document-query.js';
import type { SearchWord } from './word-expansion.js';
import { dayAfterNewest, documentKeys, documentMatches, documentPage, documentTotal, orderOf, type CountedBeside, type DocumentOrder, type DocumentSearch } from './document-reads.js';
import { attributeTermsOf, categoryNamed, documentSearchOf, publicPageRows, publicSearch, type PublicListingFilters, type PublicListingPageRow } from './queries.js';
import { catalogueShares, shareOfRange } from './price-share.js';
import type { PriceShares } from './order-spans.js';
import { attributeListings, type AttributeListings } from './attribute-listings.js';
import { readOncePer } from './read-once.js';
import { offsetOf, planStorefrontRead, SERVED_RESULTS, type StorefrontReadPlan, type StorefrontReadPlanName, type StorefrontReadRequest } from './read-plan.js';

interface PageRead<Row> {
  rows: Row[];
  total?: MatchedTotal;
}

/**
 * The storefront's busiest statement, a near page of every available listing (out of the trash) or
 * of one category, newest first, built and planned once per database and shape (with or without a category).
 */
function prepareNearPage(executor: Executor, inCategory: boolean) {
  return publicPageRows(executor)
    .where(and(eq(listings.status, 'AVAILABLE'), inCategory ? eq(listings.categoryId, categoryNamed(sql.placeholder('category'))) : undefined, notTrashed))
    .orderBy(...newestFirst)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(inCategory ? 'public_listings_near_page_in_category' : 'public_listings_near_page');
}

const preparedNearPages = new WeakMap<Executor, Map<boolean, ReturnType<typeof prepareNearPage>>>();

function nearPage(executor: Executor, inCategory: boolean) {
  let byShape = preparedNearPages.get(executor);
  if (!byShape) preparedNearPages.set(executor, (byShape = new Map()));
  let prepared = byShape.get(inCategory);
  if (!prepared) byShape.set(inCategory, (prepared = prepareNearPage(executor, inCategory)));
  return prepared;
}

/**
 * The share of the listings a filter is assumed to keep when no kept count tells: an amenity, a
 * price range before the prices have statistics.
 * Only the first window's width depends on it (a window too narrow is read again wider).
 */
const ASSUMED_SHARE = 0.1;

/**
 * What every read of one search shares, read once per request: how many available listings there
 * are and how many of them the category holds (undefined without one), by the kept totals; how
 * many of those hold each attribute filter's value, by its kept counts; the share of the listings
 * priced within a stretch, by the price column's statistics, and so the price range's (undefined
 * without a range, or before there are statistics); and the day after the newest listing's.
 */
interface SearchScope {
  everyListing: number;
  inScope: number;
  attributes: AttributeListings[];
  catalogue?: PriceShares;
  pricedShare?: number;
  dayAfterNewest: number;
}

/**
 * The kept counts of the filters' attribute values (attributeListings()), read once for the
 * filters of a request however many of its reads ask: a filter panel's counts and its price range.
 */
const keptAttributeCounts = readOncePer(async (executor: Executor, filters: PublicListingFilters): Promise<AttributeListings[]> =>
  filters.attributes.length === 0 ? [] : attributeListings(executor, filters.attributes, filters.categoryId ?? undefined),
);

async function searchScope(executor: Executor, filters: PublicListingFilters): Promise<SearchScope> {
  const priced = filters.priceMin !== undefined || filters.priceMax !== undefined;
  const categoryId = filters.categoryId ?? undefined;
  const [everyListing, inCategory, attributes, catalogue, afterNewest] = await Promise.all([
    countListings(executor, { status: 'AVAILABLE' }),
    categoryId ? countListings(executor, { status: 'AVAILABLE', categoryId }) : undefined,
    keptAttributeCounts(executor, filters),
    priced ? catalogueShares(executor) : undefined,
    dayAfterNewest(executor),
  ]);
  const pricedShare = catalogue === undefined ? undefined : shareOfRange(catalogue, filters.priceMin, filters.priceMax);
  return { everyListing, inScope: inCategory ?? everyListing, attributes, catalogue, pricedShare, dayAfterNewest: afterNewest };
}

/** About how many listings hold a word at `level` (see WordMatch), by the kept counts. */
function wordListings(word: SearchWord, level: WordMatch, everyListing: number): number {
  const { mostBegun, inTitles, near, nearInTitles } = word.listings;
  if (word.wholeOnly || level === 'title') return inTitles;
  if (level === 'title-near') return inTitles + nearInTitles;
  if (word.begun === undefined) return everyListing;
  const typed = Math.max(mostBegun, inTitles);
  return level === 'typed' ? typed : typed + near;
}

/** At most how many listings hold a word at `level`, by the kept counts; undefined when they do not tell. */
function wordListingsAtMost(word: SearchWord, level: WordMatch): number | undefined {
  const { begun, inTitles, near, nearInTitles } = word.listings;
  if (word.wholeOnly || level === 'title') return inTitles;
  if (level === 'title-near') return inTitles + nearInTitles;
  if (word.begun === undefined) return undefined;
  return level === 'typed' ? begun + inTitles : begun + inTitles + near;
}

/**
 * At most how many listings match the filters, their words at `level`: the fewest any word or
 * attribute value allows (`attributes`, their kept counts). It only steers how a list is read
 * (whole or in windows) and how a filter panel counts, never what either answers: an attribute's
 * kept counts leave out values no filter names in practice (lists and objects as text).
 */
function mostMatches(filters: PublicListingFilters, attributes: AttributeListings[], level: WordMatch): number | undefined {
  const bounds = [
    ...(filters.search?.words ?? []).map((word) => wordListingsAtMost(word, level)),
    ...attributes.map((held) => held.listings),
  ].filter((bound) => bound !== undefined);
  return bounds.length === 0 ? undefined : Math.min(...bounds);
}

/** At most how many available listings match the filters, by the kept counts of their words and attribute values; undefined when they do not tell. */
export async function matchesAtMost(executor: Executor, filters: PublicListingFilters): Promise<number | undefined> {
  return mostMatches(filters, await keptAttributeCounts(executor, filters), 'near');
}

/** About how many available listings match the filters, their words at `level`: each filter's share of the listings, multiplied. */
function estimatedMatches(filters: PublicListingFilters, { everyListing, inScope, attributes, pricedShare }: SearchScope, level: WordMatch): number {
  const shares = [
    ...(filters.search?.words ?? []).map((word) => Math.min(1, wordListings(word, level, everyListing) / Math.max(everyListing, 1))),
    ...attributes.map((held) => Math.min(1, held.listings / Math.max(inScope, 1))),
    ...filters.amenities.map(() => ASSUMED_SHARE),
    ...(filters.priceMin !== undefined || filters.priceMax !== undefined ? [pricedShare ?? ASSUMED_SHARE] : []),
  ];
  return Math.max(1, shares.reduce((estimate, share) => estimate * share, inScope));
}

/**
 * A total known without counting, when one filter alone is known by the kept counts to match at
 * least EXACT_TOTAL_LIMIT listings: one word standing for a word that many listings hold (one it
 * begins, a title word holding it, a near spelling), or one attribute value that many listings
 * surely hold, in the category when one is given (`brand=apple`, 160,000 of a million listings,
 * counted 10,000 of them in 120 ms).
 */
function keptLowerBound(filters: PublicListingFilters, scope: SearchScope): MatchedTotal | undefined {
  const words = filters.search?.words ?? [];
  if (filters.amenities.length > 0 || filters.priceMin !== undefined || filters.priceMax !== undefined || words.length + filters.attributes.length !== 1) return undefined;
  const surely = words.length === 1 ? (filters.category ? 0 : words[0]!.listings.mostHeld) : scope.attributes[0]!.surely;
  return surely >= EXACT_TOTAL_LIMIT ? cappedTotal(EXACT_TOTAL_LIMIT) : undefined;
}

/**
 * A price range holding at least this share of the listings, filtering alone, is checked on each
 * listing instead of read as spans: the spans of most prices stand for most of the index, which
 * it would gather whole (`priceMin=1&priceMax=999999`, page 199, took 371 ms at a million
 * listings), while a window of the newest listings finds a page's matches among about as many rows.
 */
const MOST_LISTINGS = 0.5;

/**
 * The filters as the search index reads them, or one tier of relevance of them (its query, its words
 * matched at its level), with how many listings they match by the kept counts.
 */
function documentSearchIn(filters: PublicListingFilters, scope: SearchScope, tier?: RelevanceTier): DocumentSearch {
  const documentSearch = documentSearchOf(filters, true);
  const query = tier === undefined ? documentSearch.query : tier.query;
  const level = tier === undefined ? 'near' : tier.level;
  return {
    ...documentSearch,
    query,
    estimate: estimatedMatches(filters, scope, level),
    most: mostMatches(filters, scope.attributes, level),
    available: scope.everyListing,
    dayAfterNewest: scope.dayAfterNewest,
    pricesChecked: query === undefined && (scope.pricedShare ?? 0) >= MOST_LISTINGS,
    catalogue: scope.catalogue,
  };
}

/** How many listings match the filters read through the search index (in `scope`, when already read), up to the served results. */
async function searchTotal(executor: Executor, filters: PublicListingFilters, given?: SearchScope): Promise<MatchedTotal> {
  const scope = given ?? (await searchScope(executor, filters));
  return keptLowerBound(filters, scope) ?? documentTotal(executor, documentSearchIn(filters, scope));
}

/** What every executor is given: the request, and its filters as the index readers take them. */
interface ReadContext {
  executor: Executor;
  request: StorefrontReadRequest;
  search: NewestFirstSearch;
}

/** The search at one level of word matching (see WordMatch), with its other filters; undefined when some word cannot match so. */
function tierQuery(filters: PublicListingFilters, level: WordMatch): string | undefined {
  const words = searchQuery(filters.search!, level);
  if (words === undefined) return undefined;
  return allOf(words, filtersQuery({ attributeTerms: attributeTermsOf(filters), amenities: filters.amenities, categoryId: filters.categoryId ?? undefined }));
}

/** A tier of relevance: its query, and the level of word matching it stands at. */
interface RelevanceTier {
  query: string;
  level: WordMatch;
}

/**
 * Relevance's tiers, best first: the matches of each level of word matching (see WordMatch) that
 * no better level matches. Every word in the title, brand or model as typed; with near
 * spellings there; every word as typed anywhere; near spellings anywhere.
 */
function relevanceTiers(filters: PublicListingFilters): RelevanceTier[] {
  const tiers: RelevanceTier[] = [];
  const better: string[] = [];
  for (const level of ['title', 'title-near', 'typed', 'near'] as const) {
    const query = tierQuery(filters, level);
    if (query === undefined || better.includes(query)) continue;
    tiers.push({ level, query: better.length === 0 ? query : `(${query}) & !(${better.map((other) => `(${other})`).join(' | ')})` });
    better.push(query);
  }
  return tiers;
}

/**
 * A page by relevance: tier by tier, newest first in each. A tier whose page came back short
 * ended there, which says how many it holds; only a tier the page starts past is counted. Once
 * the count beside the page says the page holds every match from its start on, no later tier
 * is read.
 */
async function relevantPage<Row>(context: ReadContext, scope: SearchScope, selectRows: RowSelection<Row>, counted: CountedBeside): Promise<Row[]> {
  const { executor, request, search } = context;
  let offset = search.offset;
  const rows: Row[] = [];
  for (const relevanceTier of relevanceTiers(request.filters)) {
    const total = counted();
    if (total?.exact && search.offset + rows.length >= total.total) break;
    const tier = documentSearchIn(request.filters, scope, relevanceTier);
    const limit = search.limit - rows.length;
    const read = await documentPage(executor, tier, 'newest', { offset, limit }, selectRows, counted);
    rows.push(...read);
    if (rows.length === search.limit) break;
    // A tier read from its first match that gives none holds none: nothing to count.
    if (read.length > 0 || offset === 0) offset = 0;
    else {
      const held = await documentTotal(executor, tier);
      if (!held.exact) break;
      offset = Math.max(0, offset - held.total);
    }
  }
  return rows;
}

type Executors = { [Name in StorefrontReadPlanName]: (plan: Extract<StorefrontReadPlan, { name: Name }>, context: ReadContext) => Promise<PageRead<PublicListingPageRow>> };

/** The kept total of available listings (of the category). */
async function keptTotal({ search }: ReadContext): Promise<MatchedTotal | undefined> {
  return search.counted ? { total: await search.indexedCount(), exact: true } : undefined;
}

/**
 * A page read through the search index beside its total. Once the total has come back, it
 * steers the page's reads still to come (see CountedBeside).
 */
async function withSearchTotal<Row>(context: ReadContext, scope: SearchScope, readRows: (counted: CountedBeside) => Promise<Row[]>): Promise<PageRead<Row>> {
  const counting = context.search.counted ? searchTotal(context.executor, context.request.filters, scope) : undefined;
  let countedSoFar: MatchedTotal | undefined;
  const [rows, total] = await Promise.all([
    readRows(() => countedSoFar),
    counting?.then((counted) => (countedSoFar = counted)),
  ]);
  return { rows, total };
}

/** One executor per plan; see planStorefrontRead() for when each is chosen. */
const executors: Executors = {
  'no-match': async (_plan, { search }) => ({ rows: [], total: search.counted ? { total: 0, exact: true } : undefined }),
  'past-served': async (_plan, context) => {
    const { executor, request, search } = context;
    if (!search.counted) return { rows: [] };
    const { filters } = request;
    const total = search.checked === undefined ? await keptTotal(context) : await searchTotal(executor, filters);
    return { rows: [], total };
  },
  'newest-index': async (_plan, context) => {
    const { executor, request, search } = context;
    if (search.offset >= DEFERRED_FROM) return newestFirstPage(executor, search, publicPageRows);
    const [rows, total] = await Promise.all([
      nearPage(executor, request.filters.category !== undefined).execute({ category: request.filters.category, limit: search.limit, offset: search.offset }),
      keptTotal(context),
    ]);
    return { rows, total };
  },
  'price-index': async (plan, context) => {
    const { executor, search } = context;
    const [rows, total] = await Promise.all([
      publicPageRows(executor).where(search.indexed).orderBy(...orderOf(plan.direction === 'asc' ? 'price_asc' : 'price_desc')).limit(search.limit).offset(search.offset),
      keptTotal(context),
    ]);
    return { rows, total };
  },
  'search-index': async (plan, context) => {
    const { executor, request, search } = context;
    const scope = await searchScope(executor, request.filters);
    const documentSearch = documentSearchIn(request.filters, scope);
    // A price range holding most listings, filtering alone, is checked on each listing: newest
    // first, the listings are read in the order of the status's newest-first index as far as the
    // page, at most about twice as many as it needs (`priceMin=1&priceMax=999999`, page 199 at a
    // million listings: 115 ms through windows of the search index, 70 ms so, most of it the count).
    if (plan.order === 'newest' && documentSearch.pricesChecked) {
      const checked = { ...search, checked: documentMatches(documentSearch), counted: false };
      return withSearchTotal(context, scope, async () => (await newestFirstPage(executor, checked, publicPageRows)).rows);
    }
    return withSearchTotal(context, scope, (counted) => documentPage(executor, documentSearch, plan.order, search, publicPageRows, counted));
  },
  'relevance-tiers': async (_plan, context) => {
    const scope = await searchScope(context.executor, context.request.filters);
    return withSearchTotal(context, scope, (counted) => relevantPage(context, scope, publicPageRows, counted));
  },
};

function execute<Name extends StorefrontReadPlanName>(plan: Extract<StorefrontReadPlan, { name: Name }>, context: ReadContext): Promise<PageRead<PublicListingPageRow>> {
  return (executors[plan.name] as (plan: StorefrontReadPlan, context: ReadContext) => Promise<PageRead<PublicListingPageRow>>)(plan, context);
}

/**
 * Available listings matching the filters in the order asked for, among the first SERVED_RESULTS,
 * and (with a page) how many match: exact below EXACT_TOTAL_LIMIT, and from there that limit,
 * flagged as not exact (see cappedTotal()). With the name of the plan that read them.
 */
export async function findPublicListings(
  executor: Executor,
  request: StorefrontReadRequest,
): Promise<PageRead<PublicListingPageRow> & { plan: StorefrontReadPlanName }> {
  const plan = planStorefrontRead(request);
  const offset = offsetOf(request);
  const search: NewestFirstSearch = {
    ...publicSearch(executor, request.filters),
    offset,
    limit: Math.min(request.limit, SERVED_RESULTS - offset),
    counted: request.page !== undefined,
  };
  const { rows, total } = await execute(plan, { executor, request, search });
  return { rows, total: total === undefined ? undefined : cappedTotal(total.total), plan: plan.name };
}

/** The cheapest and dearest price among the listings matching the filters, each the first of their list in price order. */
export async function priceRangeOf(executor: Executor, filters: PublicListingFilters): Promise<{ min: number | null; max: number | null }> {
  if (filters.categoryId === null || filters.search?.matchesNothing) return { min: null, max: null };
  const search = publicSearch(executor, filters);
  const documentSearch = search.checked === undefined ? undefined : documentSearchIn(filters, await searchScope(executor, filters));
  const first = async (order: DocumentOrder) => {
    const [row] =
      documentSearch === undefined
        ? await executor.select({ price: listings.price }).from(listings).where(search.indexed).orderBy(...orderOf(order)).limit(1)
        : await documentKeys(executor, documentSearch, order, { offset: 0, limit: 1 });
    return row?.price ?? null;
  };
  const [min, max] = await Promise.all([first('price_asc'), first('price_desc')]);
  return { min, max };
}
