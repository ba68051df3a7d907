import { beforeAll, describe, expect, it } from 'vitest';
import { buildCategory, buildListing, PHONE_RULES } from './support/catalog-factories.js';
import type { ApiResponse } from './support/http.js';
import { useTestServer } from './support/test-server.js';

/**
 * A storefront search word shorter than three characters or without a letter matches only
 * listings holding it as a whole word of their title, brand or model; a storefront list serves its
 * first 10,000 results.
 */
const server = useTestServer();
const api = server.api;

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
const ids = (response: ApiResponse) => (response.body.data as Array<{ id: string }>).map((item) => item.id);

async function search(query: string): Promise<string[]> {
  const response = await api.get(`/api/public/listings?${query}`);
  expect(response.status).toBe(200);
  return ids(response);
}

let galaxy5g: Awaited<ReturnType<typeof buildListing>>;
let moto5g: Awaited<ReturnType<typeof buildListing>>;
let macbookM2: Awaited<ReturnType<typeof buildListing>>;
let lgTv: Awaited<ReturnType<typeof buildListing>>;
let thinkpadI7: Awaited<ReturnType<typeof buildListing>>;
let drive128: Awaited<ReturnType<typeof buildListing>>;

beforeAll(async () => {
  const category = await buildCategory(server.db, { name: 'SHORT_WORDS', displayName: 'Short Words', schemaRules: PHONE_RULES });
  const listing = (title: string, brand: string, model: string, price: number, minutes: number, description = 'Works perfectly.', status: 'AVAILABLE' | 'SOLD' = 'AVAILABLE') =>
    buildListing(server.db, { categoryId: category.id, title, description, price, status, attributes: { brand, model, storage: '128GB' }, createdAt: minutesAgo(minutes) });
  galaxy5g = await listing('Galaxy S23 5G', 'Samsung', 'Galaxy S23', 800, 9);
  moto5g = await listing('Moto G54 5G', 'Motorola', 'Moto G54', 200, 8);
  macbookM2 = await listing('MacBook Air M2', 'Apple', 'MacBook Air', 1100, 7);
  lgTv = await listing('OLED TV 55', 'LG', 'C3', 1300, 6);
  thinkpadI7 = await listing('ThinkPad T14 i7-1365U', 'Lenovo', 'ThinkPad T14', 950, 5);
  drive128 = await listing('Flash drive 128', 'Kingston', 'DataTraveler', 15, 4);
  // Holding the words only inside longer ones, in a description, or in a listing no page shows.
  await listing('Router with 5GHz band', 'TP-Link', 'Archer', 90, 3);
  await listing('Pixel 8', 'Google', 'Pixel 8', 500, 2, 'Supports 5G, M2 and LG accessories; 128 colours.');
  await listing('Galaxy M23', 'Samsung', 'Galaxy M23', 250, 1);
  await listing('iPhone 13 128GB', 'Apple', 'iPhone 13', 600, 1);
  await listing('Galaxy S22 5G sold', 'Samsung', 'Galaxy S22', 700, 1, 'Works perfectly.', 'SOLD');
});

describe('GET /api/public/listings: short and letterless search words', () => {
  it('a two-character word matches only listings holding it as a whole word of the title, brand or model, in any case', async () => {
    expect(await search('q=5g')).toEqual([moto5g.id, galaxy5g.id]);
    expect(await search('q=5G')).toEqual([moto5g.id, galaxy5g.id]);
    expect(await search('q=m2')).toEqual([macbookM2.id]);
    expect(await search('q=lg')).toEqual([lgTv.id]);
    expect(await search('q=i7')).toEqual([thinkpadI7.id]);
  });

  it('a word without letters matches only listings holding it as a whole word, and punctuation alone matches nothing', async () => {
    expect(await search('q=128')).toEqual([drive128.id]);
    for (const text of ['%', '#', 'a\\', '%%', '_', '--']) {
      const response = await api.get(`/api/public/listings?q=${encodeURIComponent(text)}&page=1`);
      expect({ text, status: response.status, body: response.body }).toEqual({
        text,
        status: 200,
        body: { success: true, data: [], pagination: { page: 1, limit: 50, total: 0, totalPages: 0, totalExact: true } },
      });
    }
  });

  it('a short word narrows a longer one, and finds the same listings in every order', async () => {
    expect(await search('q=galaxy%205g')).toEqual([galaxy5g.id]);
    expect(await search('q=5g&sort=newest')).toEqual([moto5g.id, galaxy5g.id]);
    expect(await search('q=5g&sort=relevance')).toEqual([moto5g.id, galaxy5g.id]);
    expect(await search('q=5g&sort=price_asc')).toEqual([moto5g.id, galaxy5g.id]);
    expect(await search('q=5g&sort=price_desc')).toEqual([galaxy5g.id, moto5g.id]);
    for (const sort of ['newest', 'relevance', 'price_asc', 'price_desc']) {
      const response = await api.get(`/api/public/listings?q=5g&sort=${sort}&page=1`);
      expect({ sort, pagination: response.body.pagination }).toEqual({ sort, pagination: { page: 1, limit: 50, total: 2, totalPages: 1, totalExact: true } });
    }
    expect(await search('q=%23&sort=price_desc')).toEqual([]);
  });
});

describe('GET /api/public/filter-options: short and letterless search words', () => {
  it('counts only the listings holding a short word whole', async () => {
    const response = await api.get('/api/public/filter-options?category=Short%20Words&q=5g');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, total: 2, countsExact: true, priceRange: { min: 200, max: 800 } });
    expect(response.body.data.brand.counts).toEqual({ Apple: 0, Google: 0, Kingston: 0, LG: 0, Lenovo: 0, Motorola: 1, Samsung: 1, 'TP-Link': 0 });
  });

  it('counts nothing for punctuation alone', async () => {
    const response = await api.get('/api/public/filter-options?category=Short%20Words&q=%25');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, total: 0, countsExact: true, priceRange: { min: null, max: null } });
    expect(Object.values(response.body.data.brand.counts as Record<string, number>).every((count) => count === 0)).toBe(true);
  });
});

describe('GET /api/public/suggest: short and letterless words', () => {
  const suggested = async (text: string) => {
    const response = await api.get(`/api/public/suggest?q=${encodeURIComponent(text)}`);
    expect(response.status).toBe(200);
    return (response.body.data as Array<{ kind: string; text: string }>).map((item) => `${item.kind}:${item.text}`);
  };

  it('an earlier short word must be a whole word of the completion', async () => {
    expect(await suggested('5g gal')).toEqual(['title:Galaxy S23 5G']);
    expect(await suggested('m2 mac')).toEqual(['title:MacBook Air M2']);
  });

  it('a last word of punctuation alone completes nothing', async () => {
    expect(await suggested('%%')).toEqual([]);
    expect(await suggested('##')).toEqual([]);
    expect(await suggested('galaxy %')).toEqual([]);
  });
});

describe('GET /api/public/listings: the first 10,000 results', () => {
  it('a page past the 10,000th result answers empty, with the total of every match', async () => {
    for (const query of ['limit=100&page=101', 'page=201', 'page=1000000', 'q=5g&page=1000000', 'q=5g&sort=price_desc&page=201', 'category=Short%20Words&sort=price_asc&page=201']) {
      const response = await api.get(`/api/public/listings?${query}`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([]);
      const limit = query.startsWith('limit=100') ? 100 : 50;
      const total = query.startsWith('q=5g') ? 2 : 10;
      expect({ query, pagination: response.body.pagination }).toEqual({
        query,
        pagination: { page: Number(new URLSearchParams(query).get('page')), limit, total, totalPages: 1, totalExact: true },
      });
    }
  });

  it('a page past the last page answers empty, with the total', async () => {
    const response = await api.get('/api/public/listings?q=5g&limit=1&page=3');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: [], pagination: { page: 3, limit: 1, total: 2, totalPages: 2, totalExact: true } });
  });
});
