import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CATEGORIES } from '../lib/categories/default-categories.js';
import { validateAttributes } from '../lib/listings/attributes.js';
import { catalogueBrands } from '../lib/seeding/catalogue-brands.js';
import { COMMON_MISSPELLINGS } from '../lib/seeding/misspellings.js';
import { randomSource } from '../lib/seeding/random-source.js';
import { CATALOGUE_SPAN_MS, generateListing, listingCreatedAt, pickCategory, type NewListing } from '../lib/seeding/realistic-catalogue.js';
import { shopperQueries, type ShopperQueryKind } from '../lib/seeding/shopper-queries.js';

/**
 * The seeder's catalogue looks like a real shop's: the properties search and browsing are measured
 * against, checked on 20,000 generated listings (the generator alone, no database).
 */
const LISTINGS = 20_000;
const NOW = Date.parse('2026-09-01T00:00:00Z');
const pool = DEFAULT_CATEGORIES.map((category) => ({ id: category.name, name: category.name, schemaRules: category.schemaRules }));
const agentIds = ['agent-a', 'agent-b', 'agent-c'];

function catalogue(seed: number, total: number): NewListing[] {
  const random = randomSource(seed);
  return Array.from({ length: total }, () => generateListing(random, pickCategory(random, pool), agentIds, listingCreatedAt(random, NOW)));
}

const ethiopic = /\p{Script=Ethiopic}/u;
const share = (listings: NewListing[], test: (listing: NewListing) => boolean) => listings.filter(test).length / listings.length;

let listings: NewListing[];

beforeAll(() => {
  listings = catalogue(7, LISTINGS);
}, 120_000);

describe('the realistic catalogue', () => {
  it('writes descriptions of 10 to 80 words drawing on more than 50,000 distinct words', () => {
    const distinct = new Set<string>();
    const outside: string[] = [];
    for (const listing of listings) {
      const words = listing.description!.split(' ').filter((token) => /[\p{L}\p{N}]/u.test(token)).length;
      if (words < 10 || words > 80) outside.push(listing.description!);
      for (const word of listing.description!.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (word) distinct.add(word);
    }
    expect(outside).toEqual([]);
    console.log(`${distinct.size.toLocaleString('en-US')} distinct description words in ${LISTINGS.toLocaleString('en-US')} listings`);
    expect(distinct.size).toBeGreaterThan(50_000);
  });

  it('makes the shop phrases and shopper words frequent', () => {
    expect(share(listings, (listing) => /\bcondition\b/i.test(listing.description!))).toBeGreaterThan(0.3);
    expect(share(listings, (listing) => /original charger/i.test(listing.description!))).toBeGreaterThan(0.03);
    expect(share(listings, (listing) => /brand new sealed/i.test(listing.description!))).toBeGreaterThan(0.03);
  });

  it('writes about one listing in twenty in Amharic, title and description', () => {
    const amharic = share(listings, (listing) => ethiopic.test(listing.title) && ethiopic.test(listing.description!));
    expect(amharic).toBeGreaterThan(0.035);
    expect(amharic).toBeLessThan(0.065);
  });

  it('has misspellings, capitals and emoji in some titles', () => {
    const misspellings = Object.values(COMMON_MISSPELLINGS).flat();
    expect(listings.some((listing) => misspellings.some((word) => listing.title.toLowerCase().split(' ').includes(word)))).toBe(true);
    expect(share(listings, (listing) => /[A-Z]{3}/.test(listing.title) && listing.title === listing.title.toUpperCase())).toBeGreaterThan(0.02);
    expect(share(listings, (listing) => /\p{Extended_Pictographic}/u.test(listing.title))).toBeGreaterThan(0.02);
  });

  it('spreads listings over 300 and more brands, Samsung and Apple the most frequent, some with accents', () => {
    const brands = new Set(Object.values(catalogueBrands()).flatMap(({ offers }) => offers.map((offer) => offer.brand)));
    expect(brands.size).toBeGreaterThanOrEqual(300);
    expect([...brands].some((brand) => /[À-ÿ]/.test(brand))).toBe(true);
    const counts = new Map<string, number>();
    for (const listing of listings) counts.set(String(listing.attributes!.brand), (counts.get(String(listing.attributes!.brand)) ?? 0) + 1);
    const byFrequency = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([brand]) => brand);
    expect(byFrequency.slice(0, 2).sort()).toEqual(['Apple', 'Samsung']);
    expect(counts.size).toBeGreaterThan(150);
  });

  it('names models by their codes as sellers copy them from the box', () => {
    for (const code of ['SM-A546E', 'A2403', 'i7-1165G7', 'RTX 3060', 'EliteBook 840 G5']) {
      expect({ code, seen: listings.some((listing) => `${listing.title} ${listing.description}`.includes(code)) }).toEqual({ code, seen: true });
    }
  });

  it('gives every listing attributes its category rules accept', () => {
    const rulesById = new Map(pool.map((category) => [category.id, category.schemaRules]));
    for (const listing of listings) expect(validateAttributes(rulesById.get(listing.categoryId)!, listing.attributes!)).toEqual(listing.attributes);
  });

  it('prices in birr skewed within each category, mostly not round', () => {
    for (const category of pool) {
      const prices = listings.filter((listing) => listing.categoryId === category.id).map((listing) => Number(listing.price)).sort((a, b) => a - b);
      const mean = prices.reduce((sum, price) => sum + price, 0) / prices.length;
      expect({ category: category.name, skewed: mean > prices[Math.floor(prices.length / 2)]! }).toEqual({ category: category.name, skewed: true });
    }
    const prices = listings.map((listing) => Number(listing.price));
    expect(prices.every((price) => price > 0 && Math.abs(Math.round(price * 100) - price * 100) < 1e-6)).toBe(true);
    const round = prices.filter((price) => price % 100 === 0).length / prices.length;
    expect(round).toBeGreaterThan(0.05);
    expect(round).toBeLessThan(0.4);
  });

  it('has every status, most listings available', () => {
    const available = share(listings, (listing) => listing.status === 'AVAILABLE');
    expect(available).toBeGreaterThan(0.65);
    expect(available).toBeLessThan(0.75);
    expect(new Set(listings.map((listing) => listing.status))).toEqual(new Set(['AVAILABLE', 'PENDING', 'SOLD', 'ARCHIVED']));
  });

  it('creates listings over two years, more of them recent', () => {
    const ages = listings.map((listing) => NOW - listing.createdAt!.getTime());
    expect(ages.every((age) => age >= 0 && age <= CATALOGUE_SPAN_MS)).toBe(true);
    const recentYear = ages.filter((age) => age < CATALOGUE_SPAN_MS / 2).length;
    expect(recentYear / (ages.length - recentYear)).toBeGreaterThan(1.5);
  });

  it('is the same catalogue for the same seed, and another for another seed', () => {
    expect(catalogue(7, 200)).toEqual(listings.slice(0, 200));
    expect(catalogue(8, 200).map((listing) => listing.title)).not.toEqual(listings.slice(0, 200).map((listing) => listing.title));
  });
});

describe("the shoppers' queries", () => {
  it('ask every kind of word from the catalogue, the same ones every time', () => {
    const queries = shopperQueries(LISTINGS);
    const kinds: ShopperQueryKind[] = ['frequent-word', 'mid-word', 'rare-word', 'description-only-word', 'model-code', 'amharic', 'typo', 'several-words', 'word-beginning'];
    for (const kind of kinds) expect({ kind, count: queries.filter((query) => query.kind === kind).length }).toMatchObject({ kind, count: expect.toSatisfy((count: number) => count >= 3) });
    expect(shopperQueries(LISTINGS)).toEqual(queries);
    const descriptions = listings.map((listing) => ` ${listing.description!.toLowerCase()} `);
    for (const query of queries.filter((entry) => entry.kind === 'mid-word' || entry.kind === 'description-only-word')) {
      expect({ query, held: descriptions.some((text) => text.includes(` ${query.q} `) || text.includes(` ${query.q}.`)) }).toEqual({ query, held: true });
    }
  });
});
