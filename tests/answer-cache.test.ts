import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildListing } from './support/catalog-factories.js';
import type { ApiResponse } from './support/http.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

/**
 * An instance keeps the CDN-cacheable answers it gave for ANSWER_CACHE_MS. Listings written
 * straight to the database (as another instance's writes look from here) show what is kept; a
 * write through the API drops the answers carrying its tags, and only those.
 */
const server = useTestServer({ ANSWER_CACHE_MS: '60000' });
const api = server.api;
const shop = useShop(server);

beforeAll(async () => {
  await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'First phone' });
});

const titles = (response: ApiResponse) => (response.body.data as Array<{ title: string }>).map((item) => item.title);

/**
 * Asks for `path` while the listings are held: one request starts reading its answer, then
 * `others` arrive; none is answered before the hold ends.
 */
async function askWhileHeld(path: string, others: number): Promise<{ reader: Promise<ApiResponse>; meanwhile: Promise<ApiResponse[]> }> {
  let asked: { reader: Promise<ApiResponse>; meanwhile: Promise<ApiResponse[]> } | undefined;
  await server.db.transaction(async (tx) => {
    await tx.execute(sql`lock table listings in access exclusive mode`);
    const taken = server.requestsTaken();
    const reader = api.get(path);
    await vi.waitFor(() => expect(server.requestsTaken()).toBe(taken + 1), { timeout: 10_000 });
    const meanwhile = Promise.all(Array.from({ length: others }, () => api.get(path)));
    await vi.waitFor(() => expect(server.requestsTaken()).toBe(taken + 1 + others), { timeout: 10_000 });
    asked = { reader, meanwhile };
  });
  return asked!;
}

describe('answers kept by the instance', () => {
  it('gives a public list again, with its validator, until a write through the API drops it', async () => {
    const first = await api.get('/api/public/listings');
    expect(titles(first)).toEqual(['First phone']);
    await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Written elsewhere' });

    const kept = await api.get('/api/public/listings');
    expect(titles(kept)).toEqual(['First phone']);
    expect(kept.headers.get('etag')).toBe(first.headers.get('etag'));
    expect((await api.get('/api/public/listings', { headers: { 'if-none-match': first.headers.get('etag')! } })).status).toBe(304);
    // Another question is another answer.
    expect(titles(await api.get('/api/public/listings?limit=10'))).toEqual(['Written elsewhere', 'First phone']);

    const created = await api.post('/api/listings', { token: shop.agent.token, json: { categoryId: shop.category.id, title: 'Written here', price: 10, attributes: { brand: 'A', model: 'B', storage: '64GB' } } });
    expect(created.status).toBe(201);
    expect(titles(await api.get('/api/public/listings'))).toEqual(['Written here', 'Written elsewhere', 'First phone']);
  });

  it('keeps one answer to a question however its parameters are ordered, and whatever parameters the endpoint does not read it carries', async () => {
    const first = await api.get(`/api/public/listings?limit=20&category=${encodeURIComponent(shop.category.displayName)}`);
    expect(first.status).toBe(200);
    await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Unseen behind random parameters' });

    for (const query of [`category=${encodeURIComponent(shop.category.displayName)}&limit=20`, `limit=20&nocache=${Math.random()}&category=${encodeURIComponent(shop.category.displayName)}&_=1`]) {
      const kept = await api.get(`/api/public/listings?${query}`);
      expect({ query, body: kept.body, etag: kept.headers.get('etag') }).toEqual({ query, body: first.body, etag: first.headers.get('etag') });
    }
    expect(titles(await api.get(`/api/public/listings?limit=21&category=${encodeURIComponent(shop.category.displayName)}&x=1`))[0]).toBe('Unseen behind random parameters');
    expect((await api.get('/api/settings?random=1')).body).toEqual((await api.get('/api/settings?random=2')).body);
  });

  it('drops only the answers carrying the tags a write names', async () => {
    const list = await api.get('/api/public/listings');
    const settings = await api.get('/api/settings');
    expect(settings.status).toBe(200);
    await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Unseen until a listing write' });

    const saved = await api.put('/api/settings', { token: shop.admin.token, json: { siteName: 'Renamed shop' } });
    expect(saved.status).toBe(200);
    expect((await api.get('/api/settings')).body.data.siteName).toBe('Renamed shop');
    expect((await api.get('/api/public/listings')).body).toEqual(list.body);
  });

  it('reads an answer asked by several requests at once only once, and gives it to each', async () => {
    const path = `/api/public/listings?limit=7&category=${encodeURIComponent(shop.category.displayName)}`;
    const { reader, meanwhile } = await askWhileHeld(path, 5);
    const answers = [await reader, ...(await meanwhile)];
    const plans = answers.map((response) => /plan;desc="([^"]+)"/.exec(response.headers.get('server-timing') ?? '')?.[1]);
    expect(plans.filter((plan) => plan !== 'cached-answer')).toEqual(['newest-index']);
    for (const response of answers) {
      expect(response.status).toBe(200);
      expect({ body: response.body, etag: response.headers.get('etag') }).toEqual({ body: answers[0]!.body, etag: answers[0]!.headers.get('etag') });
    }
  });

  describe('once an answer has run out', () => {
    const path = () => `/api/public/listings?limit=9&category=${encodeURIComponent(shop.category.displayName)}`;
    // The instance's clock is moved past each answer's lifetime (60 s here) instead of waiting for it.
    beforeAll(() => vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true }));
    afterAll(() => vi.useRealTimers());

    it('gives the requests arriving while one reads it again the answer it replaces, when that ran out no longer ago than its lifetime', async () => {
      const kept = await api.get(path());
      await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Read when the kept answer ran out' });
      vi.setSystemTime(Date.now() + 61_000);

      const { reader, meanwhile } = await askWhileHeld(path(), 3);
      // Only the answer being replaced lacks the listing: none of them waited for the read.
      for (const response of await meanwhile) {
        expect({ status: response.status, body: response.body, etag: response.headers.get('etag') }).toEqual({ status: 200, body: kept.body, etag: kept.headers.get('etag') });
      }
      const read = await reader;
      expect(titles(read)[0]).toBe('Read when the kept answer ran out');
      expect(titles(await api.get(path()))[0]).toBe('Read when the kept answer ran out');
    });

    it('makes them wait for the read when the answer ran out longer ago than its lifetime', async () => {
      await api.get(path());
      await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Read long after the kept answer ran out' });
      vi.setSystemTime(Date.now() + 121_000);

      const { reader, meanwhile } = await askWhileHeld(path(), 2);
      for (const response of [await reader, ...(await meanwhile)]) expect(titles(response)[0]).toBe('Read long after the kept answer ran out');
    });
  });

  it('gives no request an answer another read and did not keep: each reads its own', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => api.get('/api/public/listings?limit=0&page=3')));
    expect(answers.map((response) => response.status)).toEqual([400, 400, 400, 400]);
    expect(answers.map((response) => response.headers.get('cache-control'))).toEqual(['no-store', 'no-store', 'no-store', 'no-store']);
  });

  it('keeps no answer to a token, nor the public detail, nor an error', async () => {
    const before = await api.get('/api/listings', { token: shop.admin.token });
    const extra = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Seen at once by the admin' });
    const after = await api.get('/api/listings', { token: shop.admin.token });
    expect(after.body.pagination.total).toBe(before.body.pagination.total + 1);
    expect((await api.get(`/api/public/listings/${extra.id}`)).body.data.title).toBe('Seen at once by the admin');
    expect((await api.get('/api/public/listings?limit=0')).status).toBe(400);
    expect((await api.get('/api/public/listings?limit=0')).status).toBe(400);
  });
});
