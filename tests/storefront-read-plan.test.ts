import { describe, expect, it } from 'vitest';
import type { PublicListingFilters } from '../lib/storefront/queries.js';
import { planFacetCounts, planStorefrontRead, SERVED_RESULTS, type StorefrontReadRequest } from '../lib/storefront/read-plan.js';
import type { TextSearch } from '../lib/storefront/word-expansion.js';

const noFilters: PublicListingFilters = { attributes: [], amenities: [] };

function searchFor(word: string, matchesNothing = false): TextSearch {
  return { text: word, words: [{ word, wholeOnly: false, begun: [word], listings: { mostBegun: 1, mostHeld: 1, begun: 1, inTitles: 1, near: 0, nearInTitles: 0 }, inTitles: [word], near: [], nearInTitles: [] }], matchesNothing };
}

function request(overrides: Partial<Omit<StorefrontReadRequest, 'filters'>> & { filters?: Partial<PublicListingFilters> } = {}): StorefrontReadRequest {
  return { order: 'newest', limit: 24, page: 1, ...overrides, filters: { ...noFilters, ...overrides.filters } };
}

/** The first page of 24 starting at or past the served results. */
const pastServed = Math.ceil(SERVED_RESULTS / 24) + 1;

describe('the storefront read planner', () => {
  it('reads newest first from the newest-first index without filters but the category, at any page', () => {
    for (const page of [1, 200, undefined]) {
      expect(planStorefrontRead(request({ page }))).toEqual({ name: 'newest-index' });
      expect(planStorefrontRead(request({ page, filters: { category: 'Phones', categoryId: 'c1' } }))).toEqual({ name: 'newest-index' });
    }
    expect(planStorefrontRead(request({ order: 'relevance' }))).toEqual({ name: 'newest-index' });
  });

  it('reads price order from the price index without filters but the category', () => {
    expect(planStorefrontRead(request({ order: 'price_asc' }))).toEqual({ name: 'price-index', direction: 'asc' });
    expect(planStorefrontRead(request({ order: 'price_desc', filters: { category: 'Phones', categoryId: 'c1' } }))).toEqual({ name: 'price-index', direction: 'desc' });
  });

  it('reads every other filter through the search index, newest first or by price', () => {
    const filterSets: Array<Partial<PublicListingFilters>> = [
      { priceMax: 500 },
      { priceMin: 10, priceMax: 20, category: 'Phones', categoryId: 'c1' },
      { attributes: [['brand', 'apple']] },
      { amenities: ['wifi'] },
      { search: searchFor('iphone'), priceMax: 500 },
    ];
    for (const filters of filterSets) {
      expect(planStorefrontRead(request({ filters }))).toEqual({ name: 'search-index', order: 'newest' });
      expect(planStorefrontRead(request({ filters, order: 'price_asc', page: 300 }))).toEqual({ name: 'search-index', order: 'price_asc' });
      expect(planStorefrontRead(request({ filters, order: 'price_desc' }))).toEqual({ name: 'search-index', order: 'price_desc' });
    }
  });

  it('ranks by relevance, tier by tier, only with a search', () => {
    expect(planStorefrontRead(request({ order: 'relevance', filters: { search: searchFor('iphone') } }))).toEqual({ name: 'relevance-tiers' });
    expect(planStorefrontRead(request({ order: 'relevance', filters: { attributes: [['brand', 'apple']] } }))).toEqual({ name: 'search-index', order: 'newest' });
  });

  it('answers a search no listing can match, or a category that does not exist, without reading, whatever the order or page', () => {
    for (const order of ['newest', 'relevance', 'price_asc'] as const) {
      expect(planStorefrontRead(request({ order, page: 900, filters: { search: searchFor('zz', true) } }))).toEqual({ name: 'no-match' });
      expect(planStorefrontRead(request({ order, filters: { category: 'Nowhere', categoryId: null } }))).toEqual({ name: 'no-match' });
    }
  });

  it('reads only the total past the served results', () => {
    expect(planStorefrontRead(request({ page: pastServed }))).toEqual({ name: 'past-served' });
    expect(planStorefrontRead(request({ page: pastServed, order: 'price_asc', filters: { priceMax: 100 } }))).toEqual({ name: 'past-served' });
    expect(planStorefrontRead(request({ page: pastServed, filters: { search: searchFor('iphone') } }))).toEqual({ name: 'past-served' });
    expect(planStorefrontRead(request({ page: pastServed - 1 })).name).toBe('newest-index');
  });

  it('counts a filter panel from the kept counts for a whole category, the kept total without one, and the matches for other filters', () => {
    expect(planFacetCounts({ ...noFilters, category: 'Phones' })).toEqual({ name: 'kept-counts' });
    expect(planFacetCounts(noFilters)).toEqual({ name: 'indexed-count' });
    for (const filters of [{ category: 'Phones', priceMax: 100 }, { search: searchFor('iphone') }, { amenities: ['wifi'] }, { attributes: [['brand', 'apple']] as Array<[string, string]> }]) {
      expect(planFacetCounts({ ...noFilters, ...filters })).toEqual({ name: 'filtered-counts' });
    }
  });
});
