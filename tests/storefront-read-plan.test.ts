import { describe, expect, it } from 'vitest';
import { DEFERRED_FROM, MERGED_POSTINGS } from '../lib/listings/read-tuning.js';
import type { PublicListingFilters } from '../lib/storefront/queries.js';
import { planFacetCounts, planStorefrontRead, SERVED_RESULTS, type StorefrontReadRequest } from '../lib/storefront/read-plan.js';
import type { TextSearch } from '../lib/search/word-corrections.js';

const noFilters: PublicListingFilters = { attributes: [], amenities: [] };

function searchFor(text: string, matchesNothing = false): TextSearch {
  return { text, words: [{ typed: text, exact: [text], near: [], wholeOnly: false }], matchesNothing };
}

function request(overrides: Partial<Omit<StorefrontReadRequest, 'filters'>> & { filters?: Partial<PublicListingFilters> } = {}): StorefrontReadRequest {
  return { order: 'newest', limit: 24, page: 1, ...overrides, filters: { ...noFilters, ...overrides.filters } };
}

/** The page whose first row lies at `offset`, for pages of 24. */
const pageAt = (offset: number) => Math.floor(offset / 24) + 1;

describe('the storefront read planner', () => {
  it('reads a near newest-first page without row conditions with the prepared near page, in a category or not', () => {
    expect(planStorefrontRead(request())).toEqual({ name: 'near-page', inCategory: false });
    expect(planStorefrontRead(request({ filters: { category: 'Phones' } }))).toEqual({ name: 'near-page', inCategory: true });
    expect(planStorefrontRead(request({ page: undefined }))).toEqual({ name: 'near-page', inCategory: false });
    expect(planStorefrontRead(request({ page: pageAt(DEFERRED_FROM) - 1 })).name).toBe('near-page');
  });

  it('reads a deep newest-first page without row conditions by its ids from the index first', () => {
    expect(planStorefrontRead(request({ page: pageAt(DEFERRED_FROM) + 1 }))).toEqual({ name: 'deferred-page' });
    expect(planStorefrontRead(request({ order: 'relevance', page: pageAt(DEFERRED_FROM) + 1 }))).toEqual({ name: 'deferred-page' });
  });

  it('merges the newest of each price band for a price range alone, newest first, in a category or not', () => {
    for (const filters of [{ priceMax: 500 }, { priceMin: 10 }, { priceMin: 10, priceMax: 20, category: 'Phones' }]) {
      expect(planStorefrontRead(request({ filters }))).toEqual({ name: 'price-bands' });
      expect(planStorefrontRead(request({ filters, page: pageAt(DEFERRED_FROM) + 1 }))).toEqual({ name: 'price-bands' });
    }
  });

  it('walks the newest candidates for any other row condition, newest first', () => {
    for (const filters of [{ attributes: [['brand', 'apple']] as Array<[string, string]> }, { amenities: ['wifi'] }, { priceMax: 500, amenities: ['wifi'] }]) {
      expect(planStorefrontRead(request({ filters })).name).toBe('newest-walk');
    }
    expect(planStorefrontRead(request({ filters: { search: searchFor('iphone'), priceMax: 500 }, order: 'newest' })).name).toBe('newest-walk');
  });

  it('reads price order from the price index without row conditions, and from its sources with them', () => {
    expect(planStorefrontRead(request({ order: 'price_asc' }))).toEqual({ name: 'price-index', direction: 'asc' });
    expect(planStorefrontRead(request({ order: 'price_desc', filters: { category: 'Phones' } }))).toEqual({ name: 'price-index', direction: 'desc' });
    expect(planStorefrontRead(request({ order: 'price_desc', filters: { priceMax: 900 } }))).toEqual({ name: 'price-sources', direction: 'desc' });
    expect(planStorefrontRead(request({ order: 'price_asc', filters: { attributes: [['brand', 'Apple']], category: 'Phones' } })).name).toBe('price-sources');
    expect(planStorefrontRead(request({ order: 'price_asc', filters: { attributes: [['brand', 'Apple'], ['storage', '1TB']] } })).name).toBe('price-sources');
    expect(planStorefrontRead(request({ order: 'price_asc', filters: { attributes: [['brand', 'x'.repeat(300)]] } })).name).toBe('price-sources');
    // Measured in bytes, as the posting trigger measures it: 100 accented letters are 200 bytes.
    expect(planStorefrontRead(request({ order: 'price_asc', filters: { attributes: [['brand', 'é'.repeat(100)]] } })).name).toBe('price-sources');
    expect(planStorefrontRead(request({ order: 'price_asc', filters: { search: searchFor('iphone') } }))).toEqual({ name: 'price-sources', direction: 'asc' });
  });

  it("reads price order from the term's postings alone for one attribute filter and nothing else", () => {
    expect(planStorefrontRead(request({ order: 'price_asc', filters: { attributes: [['Brand', 'Apple']] } }))).toEqual({ name: 'price-postings', direction: 'asc', term: 'brand=apple' });
    expect(planStorefrontRead(request({ order: 'price_desc', page: 200, filters: { attributes: [['storage', '1TB']] } }))).toEqual({ name: 'price-postings', direction: 'desc', term: 'storage=1tb' });
  });

  it('ranks by relevance only with a search', () => {
    expect(planStorefrontRead(request({ order: 'relevance', filters: { search: searchFor('iphone') } }))).toEqual({ name: 'relevant-first' });
    expect(planStorefrontRead(request({ order: 'relevance' })).name).toBe('near-page');
  });

  it('answers a search no listing can match without reading, whatever the order or page', () => {
    for (const order of ['newest', 'relevance', 'price_asc'] as const) {
      expect(planStorefrontRead(request({ order, page: 900, filters: { search: searchFor('zz', true) } }))).toEqual({ name: 'no-match' });
    }
  });

  describe('for a search whose every condition is exactly some postings', () => {
    const posted = (postings: number): StorefrontReadRequest['posted'] => ({ conditions: [['iphone'], ['brand=apple']], postings });
    const few = posted(MERGED_POSTINGS);
    const many = posted(MERGED_POSTINGS + 1);
    const search = searchFor('iphone');
    const typo: TextSearch = { text: 'iphnoe', words: [{ typed: 'iphnoe', exact: ['iphnoe'], near: ['iphone'], wholeOnly: false, posted: { keys: ['iphnoe', 'iphone'], asTyped: false } }], matchesNothing: false };
    const twoTiers: TextSearch = { text: 'iphone', words: [{ typed: 'iphone', exact: ['iphone'], near: ['iphones'], wholeOnly: false, posted: { keys: ['iphone', 'iphones'], asTyped: true } }], matchesNothing: false };

    it('reads every page newest first from the postings, and counts them, when they are few enough to merge', () => {
      for (const page of [1, pageAt(DEFERRED_FROM) + 1]) {
        expect(planStorefrontRead(request({ posted: few, page, filters: { search } }))).toEqual({ name: 'newest-postings', conditions: few!.conditions, total: 'postings' });
        expect(planStorefrontRead(request({ posted: few, page, order: 'relevance', filters: { search: typo } }))).toEqual({ name: 'relevant-postings', conditions: few!.conditions, total: 'postings' });
      }
    });

    it('reads every page of one condition from its postings, and counts them, however many they are', () => {
      const alone = { conditions: [['iphone']], postings: MERGED_POSTINGS * 10 };
      expect(planStorefrontRead(request({ posted: alone, page: 1, filters: { search } }))).toEqual({ name: 'newest-postings', conditions: alone.conditions, total: 'postings' });
      expect(planStorefrontRead(request({ posted: alone, page: 1, filters: { search, category: 'Phones' } })).name).toBe('newest-walk');
    });

    it('reads only deep pages from the postings when they are many, counting the total as a walk does', () => {
      expect(planStorefrontRead(request({ posted: many, filters: { search } })).name).toBe('newest-walk');
      expect(planStorefrontRead(request({ posted: many, filters: { search }, page: pageAt(DEFERRED_FROM) + 1 }))).toEqual({ name: 'newest-postings', conditions: many!.conditions, total: 'walked' });
    });

    it('ranks from the postings only a search whose matches all rank in one tier', () => {
      expect(planStorefrontRead(request({ posted: few, order: 'relevance', filters: { search } })).name).toBe('relevant-postings');
      expect(planStorefrontRead(request({ posted: few, order: 'relevance', filters: { search: twoTiers } })).name).toBe('relevant-first');
    });

    it('counts a page past the served results from the postings when they are few enough to merge', () => {
      const past = Math.ceil(SERVED_RESULTS / 24) + 1;
      expect(planStorefrontRead(request({ posted: few, page: past, filters: { search } }))).toEqual({ name: 'past-served', total: 'postings' });
      expect(planStorefrontRead(request({ posted: many, page: past, filters: { search } }))).toEqual({ name: 'past-served', total: 'walked' });
    });
  });

  it('reads only the total past the served results, from the kept totals, the price bands or a walk', () => {
    // The first page of 24 starting at or past the served results.
    const past = Math.ceil(SERVED_RESULTS / 24) + 1;
    expect(planStorefrontRead(request({ page: past }))).toEqual({ name: 'past-served', total: 'kept' });
    expect(planStorefrontRead(request({ page: past, order: 'price_asc', filters: { priceMax: 100 } }))).toEqual({ name: 'past-served', total: 'price-bands' });
    expect(planStorefrontRead(request({ page: past, filters: { search: searchFor('iphone') } }))).toEqual({ name: 'past-served', total: 'walked' });
    expect(planStorefrontRead(request({ page: past - 1 })).name).toBe('deferred-page');
  });

  it('counts a filter panel from the kept counts for a whole category, the kept total without one, and the matches for row filters', () => {
    expect(planFacetCounts({ ...noFilters, category: 'Phones' })).toEqual({ name: 'kept-counts' });
    expect(planFacetCounts(noFilters)).toEqual({ name: 'indexed-count' });
    for (const filters of [{ category: 'Phones', priceMax: 100 }, { search: searchFor('iphone') }, { amenities: ['wifi'] }, { attributes: [['brand', 'apple']] as Array<[string, string]> }]) {
      expect(planFacetCounts({ ...noFilters, ...filters })).toEqual({ name: 'filtered-counts' });
    }
  });
});
