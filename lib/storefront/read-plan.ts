import { DEFERRED_FROM, MERGED_POSTINGS } from '../listings/read-tuning.js';
import { isPostedTerm } from '../listings/search-postings.js';
import { attributeTermsOf, type PublicListingFilters } from './queries.js';
import type { TextSearch } from '../search/word-corrections.js';
import type { PostedConditions } from './posted-search.js';
import type { PublicListingOrder } from './schema.js';

/**
 * A storefront list serves its first this many results, as hosted search engines cap deep paging:
 * a page past them is empty, and answered without reading one.
 */
export const SERVED_RESULTS = 10_000;

/** A storefront list as asked: its filters, order and page. */
export interface StorefrontReadRequest {
  filters: PublicListingFilters;
  order: PublicListingOrder;
  limit: number;
  /** When given, the total count is computed as well. */
  page?: number;
  /** The search as postings, when every condition's matches are exactly some keys' postings (findPostedConditions()). */
  posted?: PostedConditions;
}

/**
 * How a storefront list is read. Each plan has a stable name (for timing headers, logs and the
 * plan table of docs/performance.md) and one executor in list-reads.ts.
 */
export type StorefrontReadPlan =
  /** A search word no available listing holds whole: empty, with nothing read. */
  | { name: 'no-match' }
  /** A page past SERVED_RESULTS: no row is read, only the total the first page would give, from `total`'s source. */
  | { name: 'past-served'; total: 'kept' | 'price-bands' | 'postings' | 'walked' }
  /** Newest first without row conditions, a near page: one prepared statement and the kept total. */
  | { name: 'near-page'; inCategory: boolean }
  /** Newest first without row conditions, a deep page: its ids from the index alone, then its rows. */
  | { name: 'deferred-page' }
  /** Newest first within a price range and nothing else checked per row: the newest of each price band, merged. */
  | { name: 'price-bands' }
  /**
   * Newest first when every condition's matches are exactly postings: the page's ids from their
   * newest-first index alone; the total counted from them too when they are few enough to merge.
   */
  | { name: 'newest-postings'; conditions: string[][]; total: 'postings' | 'walked' }
  /** Newest first with other row conditions: walks of the newest candidates, or the filters' own indexes. */
  | { name: 'newest-walk' }
  /** By price without row conditions: the price index of the status (and category), and the kept total. */
  | { name: 'price-index'; direction: 'asc' | 'desc' }
  /** By price with one attribute filter alone: the page from its term's postings, and the newest-first total. */
  | { name: 'price-postings'; direction: 'asc' | 'desc'; term: string }
  /** By price with other row conditions: candidates from the postings or the price index, and the newest-first total. */
  | { name: 'price-sources'; direction: 'asc' | 'desc' }
  /** By relevance, in one tier, every condition's matches exactly postings: the newest matches ranked, then older ones, from the postings. */
  | { name: 'relevant-postings'; conditions: string[][]; total: 'postings' | 'walked' }
  /** By relevance: the newest matches ranked, tier by tier. */
  | { name: 'relevant-first' };

export type StorefrontReadPlanName = StorefrontReadPlan['name'];

/** Whether any filter is checked on each candidate row: everything but status and category. */
export function hasRowConditions(filters: PublicListingFilters): boolean {
  return (
    filters.search !== undefined ||
    filters.priceMin !== undefined ||
    filters.priceMax !== undefined ||
    filters.attributes.length > 0 ||
    filters.amenities.length > 0
  );
}

/** Whether a price range is the only filter checked on each candidate row. */
export function hasPriceRangeOnly(filters: PublicListingFilters): boolean {
  return (
    (filters.priceMin !== undefined || filters.priceMax !== undefined) &&
    filters.search === undefined &&
    filters.attributes.length === 0 &&
    filters.amenities.length === 0
  );
}

/**
 * The attribute term of a list filtered by one attribute and nothing else (not even a category),
 * when it is posted: its postings are then exactly the matches.
 */
function postedTermAlone(filters: PublicListingFilters): string | undefined {
  if (filters.category !== undefined || hasRowConditions({ ...filters, attributes: [] }) || filters.attributes.length !== 1) return undefined;
  const [term] = attributeTermsOf(filters);
  return isPostedTerm(term!) ? term : undefined;
}

/**
 * Whether relevance ranks a search's matches in one tier: none needs a typo (every match holds
 * each word as typed), or some word is held as typed by no listing (every match needs a typo).
 */
function rankedInOneTier(search: TextSearch): boolean {
  return search.words.every((word) => word.near.length === 0) || search.words.some((word) => word.posted?.asTyped === false);
}

/** The offset of the request's first row. */
export function offsetOf(request: StorefrontReadRequest): number {
  return ((request.page ?? 1) - 1) * request.limit;
}

/** Chooses how a storefront list is read, from the request alone: no database is asked. */
export function planStorefrontRead(request: StorefrontReadRequest): StorefrontReadPlan {
  const { filters, order } = request;
  const rowConditions = hasRowConditions(filters);
  const priceRangeOnly = hasPriceRangeOnly(filters);
  const offset = offsetOf(request);
  if (filters.search?.matchesNothing) return { name: 'no-match' };
  // A search's postings are counted, and its pages read from them, when few enough to merge, or when one condition's alone (no
  // merge: a count stops at the first EXACT_TOTAL_LIMIT entries, a page at its own); a deep page is read from them however many.
  const postingsCounted =
    request.posted !== undefined &&
    (request.posted.postings <= MERGED_POSTINGS || (request.posted.conditions.length === 1 && filters.category === undefined));
  const posted = postingsCounted || offset >= DEFERRED_FROM ? request.posted : undefined;
  const total = postingsCounted ? 'postings' : 'walked';
  if (offset >= SERVED_RESULTS) return { name: 'past-served', total: priceRangeOnly ? 'price-bands' : postingsCounted ? 'postings' : rowConditions ? 'walked' : 'kept' };
  if (order === 'price_asc' || order === 'price_desc') {
    const direction = order === 'price_asc' ? 'asc' : 'desc';
    if (!rowConditions) return { name: 'price-index', direction };
    const term = postedTermAlone(filters);
    return term === undefined ? { name: 'price-sources', direction } : { name: 'price-postings', direction, term };
  }
  if (order === 'relevance' && filters.search) {
    return posted && rankedInOneTier(filters.search) ? { name: 'relevant-postings', conditions: posted.conditions, total } : { name: 'relevant-first' };
  }
  if (priceRangeOnly) return { name: 'price-bands' };
  if (posted) return { name: 'newest-postings', conditions: posted.conditions, total };
  if (rowConditions) return { name: 'newest-walk' };
  return offset < DEFERRED_FROM ? { name: 'near-page', inCategory: filters.category !== undefined } : { name: 'deferred-page' };
}

/** How a filter panel counts the values of some fields over the listings matching some filters. */
export type FacetCountPlan =
  /** A whole category, nothing checked per row: the kept counts of its values, exact, and no listing read. */
  | { name: 'kept-counts' }
  /** No category and nothing checked per row: no field to count, the total from the kept totals. */
  | { name: 'indexed-count' }
  /**
   * Filters checked per row: the matches counted one by one when at most COUNTED_LISTINGS match,
   * otherwise estimated from a fixed sample of the table's pages (read first when the candidates
   * are many, to tell which).
   */
  | { name: 'filtered-counts' };

/** Chooses how a filter panel's counts are read, from the filters alone. */
export function planFacetCounts(filters: PublicListingFilters): FacetCountPlan {
  if (hasRowConditions(filters)) return { name: 'filtered-counts' };
  return filters.category === undefined ? { name: 'indexed-count' } : { name: 'kept-counts' };
}
