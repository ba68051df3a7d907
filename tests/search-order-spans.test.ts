import { sql, type SQL } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../lib/db/query-rows.js';
import { anyTermOf } from '../lib/storefront/document-query.js';
import { daySpans, daySpansFrom, priceSpans, type PriceShares } from '../lib/storefront/order-spans.js';
import { catalogueShares, shareOfRange } from '../lib/storefront/price-share.js';
import { buildCategory, buildListing } from './support/catalog-factories.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;

const MS_PER_DAY = 86_400_000;

/** Days and prices at the edges of the spans: 4^k days, a price's digits and leading digits. */
const EDGE_DAYS = [-257, -256, -17, -16, -5, -4, -1, 0, 1, 3, 4, 5, 15, 16, 17, 63, 64, 255, 256, 257, 20_479, 20_480, 20_735, 20_736, 20_800];
const EDGE_PRICES = [0, 0.01, 0.99, 1, 9, 9.99, 10, 10.5, 19.99, 20, 99.99, 100, 101, 999.99, 1000, 1199.99, 1200, 1250.5, 1299.99, 1300, 9999.99, 10000, 123456.78, 9999999999.99];

/** Which of `values` the listings' order terms (listing_order_terms(), as the database writes them) match with `query`. */
async function matched(query: string, terms: (value: number) => SQL, values: number[]): Promise<number[]> {
  const found: number[] = [];
  for (const value of values) {
    const [row] = await queryRows<{ hit: boolean }>(server.db, sql`select ${terms(value)} @@ ${query}::tsquery as hit`);
    if (row!.hit) found.push(value);
  }
  return found;
}

describe('the spans of creation days and prices the search index holds', () => {
  it('covers exactly the days of a range, at any edge of the spans', async () => {
    const created = (day: number) => sql`listing_order_terms(${new Date(day * MS_PER_DAY + 43_200_000).toISOString()}::timestamptz, 1)`;
    for (const from of [-256, -5, 0, 1, 4, 15, 16, 255, 20_480]) {
      for (const until of [from + 1, from + 3, from + 16, from + 300, 20_801]) {
        if (until <= from) continue;
        const expected = EDGE_DAYS.filter((day) => day >= from && day < until);
        expect(await matched(anyTermOf(daySpans(from, until)), created, EDGE_DAYS), `days ${from} to ${until}`).toEqual(expected);
      }
    }
  });

  it('covers every day from a day on with fewer spans, reaching past the newest day', async () => {
    const created = (day: number) => sql`listing_order_terms(${new Date(day * MS_PER_DAY + 43_200_000).toISOString()}::timestamptz, 1)`;
    for (const from of [-256, -5, 0, 1, 4, 15, 16, 255, 20_480]) {
      for (const until of [from + 1, from + 3, from + 16, from + 300, 20_801]) {
        if (until <= from) continue;
        const spans = daySpansFrom(from, until);
        const found = await matched(anyTermOf(spans), created, EDGE_DAYS);
        const label = `days from ${from}, newest ${until - 1}`;
        expect(found, label).toEqual(expect.arrayContaining(EDGE_DAYS.filter((day) => day >= from && day < until)));
        expect(found.filter((day) => day < from), label).toEqual([]);
        expect(spans.length, label).toBeLessThanOrEqual(daySpans(from, until).length);
      }
    }
    expect(daySpans(20_775, 20_786)).toHaveLength(5);
    expect(daySpansFrom(20_775, 20_786)).toEqual(['d:0:20775', 'd:1:5194', 'd:1:5195', 'd:1:5196']);
  });

  it('counts a day from midnight UTC, as the spans of a moment just before and after it say', async () => {
    const at = (iso: string) => sql`listing_order_terms(${iso}::timestamptz, 1)`;
    const day = Math.floor(Date.parse('2026-11-27T00:00:00Z') / MS_PER_DAY);
    const spans = anyTermOf(daySpans(day, day + 1));
    expect(await matched(spans, (index) => at(['2026-11-26T23:59:59.999Z', '2026-11-27T00:00:00Z', '2026-11-27T23:59:59.999Z', '2026-11-28T00:00:00Z'][index]!), [0, 1, 2, 3])).toEqual([1, 2]);
  });

  it('covers every price of a range, whatever its digits and however many listings lie beyond it', async () => {
    const priced = (price: number) => sql`listing_order_terms(now(), ${price}::numeric)`;
    const bounds = [undefined, 0, 0.5, 9, 10, 19.99, 100, 1000, 1250, 1299.99, 1300, 50_000, 9999999999.99];
    const beyonds: Array<[string, PriceShares | undefined]> = [
      ['nothing known', undefined],
      ['none beyond', () => 0],
      ['a share a birr', (from, to) => Math.min(1, (to - from) / 2_000)],
    ];
    for (const [known, beyond] of beyonds) {
      for (const min of bounds) {
        for (const max of bounds) {
          if (min !== undefined && max !== undefined && max < min) continue;
          const inRange = EDGE_PRICES.filter((price) => (min === undefined || price >= min) && (max === undefined || price <= max));
          const found = await matched(anyTermOf(priceSpans(min, max, beyond)), priced, EDGE_PRICES);
          expect(found, `prices ${min} to ${max}, ${known}`).toEqual(expect.arrayContaining(inRange));
        }
      }
    }
  });

  it('covers a range with fewer spans where few listings lie beyond its ends', () => {
    const exact = priceSpans(20_253, undefined);
    expect(exact).toContain('v:5:20');
    expect(exact).toContain('v:5:9');
    expect(priceSpans(20_253, undefined, () => 0)).toEqual(['v:5', 'v:6', 'v:7', 'v:8', 'v:9', 'v:10']);
    // Most listings lie from 10,000 to 19,999 and few from 20,000 to 20,252: v:5:2 but not v:5.
    const sampled = (from: number, to: number) => (from <= 19_999 && to >= 10_000 ? 0.5 : 0);
    expect(priceSpans(20_253, undefined, sampled)).toEqual(['v:5:2', 'v:5:3', 'v:5:4', 'v:5:5', 'v:5:6', 'v:5:7', 'v:5:8', 'v:5:9', 'v:6', 'v:7', 'v:8', 'v:9', 'v:10']);
    // Listings spread evenly up to 100,000 birr: 1,901 to 1,999 hold few of them, 2,000 to 9,999 many.
    const even = (from: number, to: number) => Math.max(0, Math.min(to, 100_000) - from) / 100_000;
    expect(priceSpans(0, 1_900, even)).toEqual(['v:1', 'v:2', 'v:3', 'v:4:1']);
  });

  it('names no span for a range no price can lie in', () => {
    expect(priceSpans(20, 10)).toEqual([]);
    expect(priceSpans(1e12, undefined)).toEqual([]);
    expect(daySpans(5, 5)).toEqual([]);
  });
});

describe('price filters of the storefront at the edges of the price spans', () => {
  const listed = new Map<string, number>();

  beforeAll(async () => {
    const category = await buildCategory(server.db, { name: 'SPAN_EDGES', displayName: 'Span Edges' });
    for (const [index, price] of EDGE_PRICES.entries()) {
      const listing = await buildListing(server.db, { categoryId: category.id, title: `Edge priced ${index}`, price, createdAt: new Date(Date.now() - index * MS_PER_DAY * 7) });
      listed.set(listing.id, price);
    }
  });

  it('answers exactly the listings whose price lies within the bounds, in every order', async () => {
    const bounds = [undefined, 0, 0.01, 9.99, 10, 99.99, 100, 1200, 1299.99, 1300, 123456.78, 9999999999.99];
    for (const min of bounds) {
      for (const max of bounds) {
        const query = new URLSearchParams({ category: 'SPAN_EDGES', limit: '100' });
        if (min !== undefined) query.set('priceMin', String(min));
        if (max !== undefined) query.set('priceMax', String(max));
        const expected = [...listed].filter(([, price]) => (min === undefined || price >= min) && (max === undefined || price <= max));
        for (const sort of ['newest', 'price_asc', 'price_desc'] as const) {
          const response = await api.get(`/api/public/listings?${query}&sort=${sort}`);
          expect(response.status).toBe(200);
          const prices = (response.body.data as Array<{ id: string; price: number }>).map((item) => item.price);
          const wanted = expected.map(([, price]) => price);
          if (sort === 'newest') expect(prices, `${query} ${sort}`).toEqual(wanted);
          else expect(prices, `${query} ${sort}`).toEqual([...wanted].sort((a, b) => (sort === 'price_asc' ? a - b : b - a)));
        }
      }
    }
  });

  it('answers a price range that holds most listings, filtering alone, with each listing checked against it', async () => {
    await server.db.execute(sql`analyze listings`);
    for (const [min, max] of [[0, undefined], [0.01, 9999999999.99], [undefined, 123456.78], [1, 999999]] as const) {
      // The statistics say the range holds most listings: its prices are checked on the rows, not read as spans.
      expect(shareOfRange((await catalogueShares(server.db))!, min, max), `share of ${min} to ${max}`).toBeGreaterThanOrEqual(0.5);
      const inRange = sql`status = 'AVAILABLE' and "deletedAt" is null and (${min ?? null}::numeric is null or price >= ${min ?? null}::numeric) and (${max ?? null}::numeric is null or price <= ${max ?? null}::numeric)`;
      // The first page, and a later one: newest first, it is read in the order of the status's index as far as the page.
      for (const [limit, page] of [[100, 1], [5, 3]] as const) {
        const query = new URLSearchParams({ limit: String(limit), page: String(page) });
        if (min !== undefined) query.set('priceMin', String(min));
        if (max !== undefined) query.set('priceMax', String(max));
        for (const [sort, order] of [['newest', sql`"createdAt" desc, id desc`], ['price_asc', sql`price, "createdAt" desc, id desc`], ['price_desc', sql`price desc, "createdAt" desc, id desc`]] as const) {
          const expected = await queryRows<{ id: string }>(server.db, sql`select id from listings where ${inRange} order by ${order} limit ${limit} offset ${(page - 1) * limit}`);
          const [counted] = await queryRows<{ total: number }>(server.db, sql`select count(*)::int as total from listings where ${inRange}`);
          const response = await api.get(`/api/public/listings?${query}&sort=${sort}`);
          expect(response.status).toBe(200);
          expect((response.body.data as Array<{ id: string }>).map((item) => item.id), `${query} ${sort}`).toEqual(expected.map((row) => row.id));
          expect(response.body.pagination.total, `${query} ${sort}`).toBe(counted!.total);
        }
      }
    }
  });
});

