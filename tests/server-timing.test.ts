import { beforeAll, describe, expect, it } from 'vitest';
import { buildCategory, buildListing } from './support/catalog-factories.js';
import type { ApiResponse } from './support/http.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const STOREFRONT = 'http://localhost:5173';
const server = useTestServer({ ALLOWED_ORIGINS: STOREFRONT });
const api = server.api;
const shop = useShop(server);

beforeAll(async () => {
  const category = await buildCategory(server.db, { name: 'TIMED_PHONES', displayName: 'Timed Phones' });
  for (const [title, brand] of [
    ['Galaxy S23', 'Samsung'],
    ['iPhone 15', 'Apple'],
    ['Pixel 8', 'Google'],
  ] as const) {
    await buildListing(server.db, { categoryId: category.id, agentId: shop.admin.id, title, attributes: { brand, model: title, storage: '128GB' } });
  }
});

interface ServerTiming {
  db: number;
  total: number;
  plan: string | undefined;
}

/** The header's entries, after checking its exact form. */
function serverTimingOf(response: ApiResponse): ServerTiming {
  const header = response.headers.get('server-timing') ?? '';
  const match = /^db;dur=(\d+\.\d), total;dur=(\d+\.\d)(?:, plan;desc="([a-z+-]+)")?$/.exec(header);
  expect(match, `Server-Timing: ${header}`).not.toBeNull();
  return { db: Number(match![1]), total: Number(match![2]), plan: match![3] };
}

describe('Server-Timing', () => {
  it('is on every answer: reads, writes, errors, unknown routes, wrong methods and preflights', async () => {
    const answers = [
      await api.get('/api/health'),
      await api.get('/api/public/listings'),
      await api.put('/api/settings', { token: shop.admin.token, json: { siteName: 'Timed shop' } }),
      await api.get('/api/public/listings?limit=abc'),
      await api.get('/api/listings'),
      await api.get('/api/no-such-route'),
      await api.delete('/api/settings', { token: shop.admin.token }),
      await api.send('OPTIONS', '/api/settings', { headers: { origin: STOREFRONT, 'access-control-request-method': 'PUT' } }),
    ];
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 400, 401, 404, 405, 204]);
    for (const response of answers) {
      const timing = serverTimingOf(response);
      expect(timing.db).toBeLessThanOrEqual(timing.total);
    }
  });

  it('counts the time statements took: none for liveness, some for a read and for a write in a transaction', async () => {
    expect(serverTimingOf(await api.get('/api/health')).db).toBe(0);
    expect(serverTimingOf(await api.get('/api/categories')).db).toBeGreaterThan(0);
    expect(serverTimingOf(await api.put('/api/settings', { token: shop.admin.token, json: { siteName: 'Timed again' } })).db).toBeGreaterThan(0);
  });

  it('names the read plan a storefront list took', async () => {
    const planOf = async (query: string) => {
      const response = await api.get(`/api/public/listings${query}`);
      expect(response.status).toBe(200);
      return serverTimingOf(response).plan;
    };
    expect(await planOf('')).toBe('newest-index');
    expect(await planOf('?brand=apple&page=1')).toBe('search-index');
    expect(await planOf('?brand=apple&amenities=wifi&page=1')).toBe('search-index');
    expect(await planOf('?q=galaxy')).toBe('relevance-tiers');
    expect(await planOf('?sort=price_desc')).toBe('price-index');
    expect(await planOf('?q=galaxy&sort=price_desc')).toBe('search-index');
    expect(await planOf('?priceMax=500&page=2')).toBe('search-index');
    expect(await planOf('?q=zzqqxx')).toBe('no-match');
    expect(await planOf('?page=100000')).toBe('past-served');
  });

  it('names the counting a facet read took', async () => {
    const planOf = async (query: string) => {
      const response = await api.get(`/api/public/filter-options${query}`);
      expect(response.status).toBe(200);
      return serverTimingOf(response).plan;
    };
    expect(await planOf('?category=TIMED_PHONES')).toBe('kept-counts');
    // The other fields are counted over the brand's listings; the brand's own options over the whole category.
    expect(await planOf('?category=TIMED_PHONES&brand=samsung')).toBe('filtered-counts+kept-counts');
    expect(await planOf('')).toBe('indexed-count');
    expect(await planOf('?q=5g')).toBe('no-match');
  });

  it('names no plan on answers that are not storefront reads', async () => {
    expect(serverTimingOf(await api.get('/api/categories')).plan).toBeUndefined();
    expect(serverTimingOf(await api.get('/api/settings')).plan).toBeUndefined();
  });

  it('is readable from the storefront\'s scripts: Timing-Allow-Origin names an allowed origin, and only one', async () => {
    const allowed = await api.get('/api/public/listings', { headers: { origin: STOREFRONT } });
    expect(allowed.headers.get('timing-allow-origin')).toBe(STOREFRONT);
    const stranger = await api.get('/api/public/listings', { headers: { origin: 'https://elsewhere.example' } });
    expect(stranger.headers.get('timing-allow-origin')).toBeNull();
  });
});

describe('telemetry without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('loads nothing of OpenTelemetry: no API registered after requests, reads and writes', async () => {
    expect(process.env.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect((await api.get('/api/public/listings')).status).toBe(200);
    expect((await api.put('/api/settings', { token: shop.admin.token, json: { siteName: 'Untraced' } })).status).toBe(200);
    expect(Object.getOwnPropertySymbols(globalThis).map(String).filter((symbol) => symbol.includes('opentelemetry'))).toEqual([]);
  });
});
