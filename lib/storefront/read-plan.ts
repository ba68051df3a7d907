import { hasDocumentFilters, type PublicListingFilters } from './queries.js';
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
}

/**
 * How a storefront list is read. Each plan has a stable name (for timing headers, logs and the
 * plan table of docs/search.md) and one executor in list-reads.ts.
 */
export type StorefrontReadPlan =
  /** A search word standing for none of the shop's words, or a category that does not exist: empty, with nothing read. */
  | { name: 'no-match' }
  /** A page past SERVED_RESULTS: no row is read, only the total the first page would give. */
  | { name: 'past-served' }
  /** Newest first, nothing but the category: the newest-first index of the status (and category), and the kept total. */
  | { name: 'newest-index' }
  /** By price, nothing but the category: the price index of the status (and category), and the kept total. */
  | { name: 'price-index'; direction: 'asc' | 'desc' }
  /** Words, attributes, amenities or prices, newest first or by price: the search index, a window of the order's key at a time. */
  | { name: 'search-index'; order: 'newest' | 'price_asc' | 'price_desc' }
  /** By relevance: the search index, tier by tier (title matches, then words as typed, then near spellings), newest first in each. */
  | { name: 'relevance-tiers' };

export type StorefrontReadPlanName = StorefrontReadPlan['name'];

/** The offset of the request's first row. */
export function offsetOf(request: StorefrontReadRequest): number {
  return ((request.page ?? 1) - 1) * request.limit;
}

/** Chooses how a storefront list is read, from the request alone: no database is asked. */
export function planStorefrontRead(request: StorefrontReadRequest): StorefrontReadPlan {
  const { filters, order } = request;
  if (filters.search?.matchesNothing || filters.categoryId === null) return { name: 'no-match' };
  if (offsetOf(request) >= SERVED_RESULTS) return { name: 'past-served' };
  if (!hasDocumentFilters(filters)) {
    if (order === 'price_asc' || order === 'price_desc') return { name: 'price-index', direction: order === 'price_asc' ? 'asc' : 'desc' };
    return { name: 'newest-index' };
  }
  if (order === 'relevance' && filters.search) return { name: 'relevance-tiers' };
  return { name: 'search-index', order: order === 'price_asc' || order === 'price_desc' ? order : 'newest' };
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
  if (hasDocumentFilters(filters)) return { name: 'filtered-counts' };
  return filters.category === undefined ? { name: 'indexed-count' } : { name: 'kept-counts' };
}
