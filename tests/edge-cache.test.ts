import { beforeAll, describe, expect, it } from 'vitest';
import { buildCategory, buildListing } from './support/catalog-factories.js';
import { withCacheInvalidations } from './support/cache-invalidations.js';
import { buildAgent } from './support/factories.js';
import type { ApiResponse } from './support/http.js';
import { useLoopbackBotApi } from './support/loopback-bot-api.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const BOT_TOKEN = '800000003:AAEdgeCacheTestsBotToken_abcdefghijk';
const CDN_CACHE_CONTROL = 'public, max-age=0, s-maxage=60, stale-while-revalidate=60';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

const bot = useLoopbackBotApi({ token: BOT_TOKEN, channelId: '-1005550002222' });
const server = useTestServer(() => bot.serverEnv());
const api = server.api;
const shop = useShop(server);

let listing: Awaited<ReturnType<typeof buildListing>>;

beforeAll(async () => {
  listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id });
});

const etagOf = (response: ApiResponse) => response.headers.get('etag')!;

/** The headers a CDN keeps an answer by, as a 200 and a 304 both carry them. */
function cachingHeaders(response: ApiResponse) {
  return { cacheControl: response.headers.get('cache-control'), etag: etagOf(response), tags: response.headers.get('vercel-cache-tag') };
}

describe('public answers the CDN may keep', () => {
  it.each([
    ['the public list', () => ['/api/public/listings', 'listings,categories']],
    ['a page of a public search', () => ['/api/public/listings?q=iphone&page=1', 'listings,categories']],
    ['the filter options', () => [`/api/public/filter-options?category=${shop.category.name}`, 'listings,categories']],
    ['the search suggestions', () => ['/api/public/suggest?q=iph', 'listings,categories']],
    ['the categories', () => ['/api/categories', 'categories,listings']],
    ['one category', () => [`/api/categories/${shop.category.id}`, `category:${shop.category.id}`]],
    ['the settings', () => ['/api/settings', 'settings']],
    ['the messenger bot', () => ['/api/public/messenger-bot', 'messenger-bot']],
    ["the messenger bot under the original's path", () => ['/api/public/telegram-bot', 'messenger-bot']],
  ])('%s: cacheable by the CDN for at most 60 s, revalidated by browsers, tagged with what it shows', async (_name, read: () => string[]) => {
    const [path, tags] = read() as [string, string];
    const response = await api.get(path);
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.headers.get('cache-control')).toBe(CDN_CACHE_CONTROL);
    expect(response.headers.get('etag')).toMatch(/^W\/"[\w-]+"$/);
    expect(response.headers.get('vercel-cache-tag')).toBe(tags);
    expect(response.headers.get('vary')).toBe('Origin');
    expect((await api.get(path)).headers.get('etag')).toBe(etagOf(response));
  });

  it('answers a matching If-None-Match with 304: no body, the same validator, caching headers and tags', async () => {
    const first = await api.get('/api/public/listings');
    const again = await api.get('/api/public/listings', { headers: { 'if-none-match': etagOf(first) } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('content-type')).toBeNull();
    expect(cachingHeaders(again)).toEqual(cachingHeaders(first));
  });

  it.each([
    ['a list naming it among others', (etag: string) => `"stale", ${etag}, W/"other"`],
    ['its strong form (weak comparison)', (etag: string) => etag.slice(2)],
    ['*', () => '*'],
  ])('takes If-None-Match as naming the answer when it is %s', async (_name, ifNoneMatch) => {
    const first = await api.get('/api/settings');
    const again = await api.get('/api/settings', { headers: { 'if-none-match': ifNoneMatch(etagOf(first)) } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it.each([
    ['other tags', '"stale", W/"other"'],
    ['not a list of tags', 'garbage'],
  ])('answers 200 with the body when If-None-Match names %s', async (_name, ifNoneMatch) => {
    const first = await api.get('/api/settings');
    const again = await api.get('/api/settings', { headers: { 'if-none-match': ifNoneMatch } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(cachingHeaders(again)).toEqual(cachingHeaders(first));
  });

  it('answers HEAD as GET without the body, and with 304 to a matching If-None-Match', async () => {
    const get = await api.get(`/api/categories/${shop.category.id}`);
    const head = await api.send('HEAD', `/api/categories/${shop.category.id}`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(cachingHeaders(head)).toEqual(cachingHeaders(get));
    const conditional = await api.send('HEAD', `/api/categories/${shop.category.id}`, { headers: { 'if-none-match': etagOf(get) } });
    expect(conditional.status).toBe(304);
    expect(cachingHeaders(conditional)).toEqual(cachingHeaders(get));
  });

  it('answers 200 with the changed body and a new validator once a write changed the answer', async () => {
    const before = await api.get(`/api/categories/${shop.category.id}`);
    await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id });
    const after = await api.get(`/api/categories/${shop.category.id}`, { headers: { 'if-none-match': etagOf(before) } });
    expect(after.status).toBe(200);
    expect(after.body.data.listingCount).toBe(before.body.data.listingCount + 1);
    expect(etagOf(after)).not.toBe(etagOf(before));
  });
});

describe('answers the CDN never keeps', () => {
  function expectNoStore(response: ApiResponse) {
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('etag')).toBeNull();
    expect(response.headers.get('vercel-cache-tag')).toBeNull();
  }

  it.each([
    ['an unknown category', () => `/api/categories/${MISSING_ID}`, 404],
    ['a malformed category id', () => '/api/categories/not-a-uuid', 400],
    ['an invalid public list query', () => '/api/public/listings?limit=none', 400],
  ])('errors of cacheable reads: %s', async (_name, path, status) => {
    const response = await api.get(path(), { headers: { 'if-none-match': '*' } });
    expect(response.status).toBe(status);
    expect(response.body.success).toBe(false);
    expectNoStore(response);
  });

  it('a method the path does not answer', async () => {
    const response = await api.post('/api/public/listings', { json: {} });
    expect(response.status).toBe(405);
    expectNoStore(response);
  });

  it('the public detail, which counts a view, even when If-None-Match is *', async () => {
    const response = await api.get(`/api/public/listings/${listing.id}`, { headers: { 'if-none-match': '*' } });
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe(listing.id);
    expectNoStore(response);
    expectNoStore(await api.send('HEAD', `/api/public/listings/${listing.id}`));
  });

  it.each([
    ['a listing', () => `/api/listings/${listing.id}`],
    ['the own listings', () => '/api/listings'],
    ['the profile', () => '/api/auth/me'],
    ['the notifications', () => '/api/notifications'],
    ['the channel configs', () => '/api/syndication/config'],
  ])('authenticated answers: %s', async (_name, path) => {
    const response = await api.get(path(), { token: shop.agent.token });
    expect(response.status).toBe(200);
    expectNoStore(response);
  });

  it('administrator answers', async () => {
    const response = await api.get('/api/commissions/summary', { token: shop.admin.token });
    expect(response.status).toBe(200);
    expectNoStore(response);
  });
});

describe('writes purge the tags of what they change', () => {
  const phoneAttributes = { brand: 'Apple', model: 'iPhone 15', storage: '128GB' };
  /** Whether an answer is still the one `earlier` was: a 304 to its validator. */
  const unchangedSince = async (earlier: ApiResponse, path: string) => (await api.get(path, { headers: { 'if-none-match': etagOf(earlier) } })).status === 304;

  describe('listings', () => {
    let tablets: Awaited<ReturnType<typeof buildCategory>>;
    beforeAll(async () => {
      tablets = await buildCategory(server.db);
    });
    const phoneListing = async () => (await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, attributes: phoneAttributes })).id;

    it('a create purges the lists and its category, and the channel post after it purges nothing', async () => {
      const { result, invalidations } = await withCacheInvalidations(() =>
        api.post('/api/listings', { token: shop.admin.token, json: { title: 'Purged iPhone', price: 700, categoryId: shop.category.id, agentId: shop.agent.id, attributes: phoneAttributes } }),
      );
      expect(result.status).toBe(201);
      expect(invalidations).toEqual([['listings', `category:${shop.category.id}`]]);
      expect(bot.callsTo('sendMessage').some((call) => String(call.text).includes('Purged iPhone'))).toBe(true);
    });

    it('an edit purges the lists and its category', async () => {
      const written = await phoneListing();
      const { result, invalidations } = await withCacheInvalidations(() => api.patch(`/api/listings/${written}`, { token: shop.admin.token, json: { price: 650 } }));
      expect(result.status).toBe(200);
      expect(invalidations).toEqual([['listings', `category:${shop.category.id}`]]);
    });

    it('a move to another category purges both categories', async () => {
      const written = await phoneListing();
      const { result, invalidations } = await withCacheInvalidations(() => api.patch(`/api/listings/${written}`, { token: shop.admin.token, json: { categoryId: tablets.id } }));
      expect(result.status).toBe(200);
      expect(invalidations).toEqual([['listings', `category:${shop.category.id}`, `category:${tablets.id}`]]);
    });

    it('a status change and a sale purge the lists and its category', async () => {
      const written = await phoneListing();
      const paused = await withCacheInvalidations(() => api.patch(`/api/listings/${written}`, { token: shop.admin.token, json: { status: 'PENDING' } }));
      expect(paused.result.status).toBe(200);
      expect(paused.invalidations).toEqual([['listings', `category:${shop.category.id}`]]);
      const sold = await withCacheInvalidations(() => api.patch(`/api/listings/${written}`, { token: shop.admin.token, json: { status: 'SOLD' } }));
      expect(sold.result.body.data.status).toBe('ARCHIVED');
      expect(sold.invalidations).toEqual([['listings', `category:${shop.category.id}`]]);
    });

    it('a delete purges the lists and its category', async () => {
      const written = (await buildListing(server.db, { categoryId: tablets.id, agentId: shop.agent.id })).id;
      const { result, invalidations } = await withCacheInvalidations(() => api.delete(`/api/listings/${written}`, { token: shop.admin.token }));
      expect(result.status).toBe(200);
      expect(invalidations).toEqual([['listings', `category:${tablets.id}`]]);
    });

    it('a write that fails purges nothing', async () => {
      const { result, invalidations } = await withCacheInvalidations(() => api.patch(`/api/listings/${MISSING_ID}`, { token: shop.admin.token, json: { price: 1 } }));
      expect(result.status).toBe(404);
      expect(invalidations).toEqual([]);
    });

    it('a commission, which no public answer shows, purges nothing and changes no public answer', async () => {
      const list = await api.get('/api/public/listings');
      const { result, invalidations } = await withCacheInvalidations(() => api.patch(`/api/commissions/listing/${listing.id}`, { token: shop.admin.token, json: { commissionPercent: 7.5 } }));
      expect(result.status).toBe(200);
      expect(invalidations).toEqual([]);
      expect(await unchangedSince(list, '/api/public/listings')).toBe(true);
    });

    it('views, inquiries and channel posts, which write listings and logs, purge nothing and change no public answer', async () => {
      const list = await api.get('/api/public/listings');
      const category = await api.get(`/api/categories/${shop.category.id}`);
      const { invalidations } = await withCacheInvalidations(async () => {
        expect((await api.get(`/api/public/listings/${listing.id}`)).status).toBe(200);
        expect((await api.post(`/api/public/listings/${listing.id}/inquiry`, { json: { method: 'call' } })).status).toBe(200);
        expect((await api.post(`/api/syndication/trigger/${listing.id}`, { token: shop.admin.token })).status).toBeLessThan(300);
      });
      expect(bot.callsTo('sendMessage').some((call) => String(call.text).includes(listing.title))).toBe(true);
      expect(invalidations).toEqual([]);
      expect(await unchangedSince(list, '/api/public/listings')).toBe(true);
      expect(await unchangedSince(category, `/api/categories/${shop.category.id}`)).toBe(true);
    });

    it("agents' profile changes and removal, which no cached answer shows, purge nothing and change no public answer", async () => {
      const leaving = await buildAgent(server.db);
      await buildListing(server.db, { categoryId: shop.category.id, agentId: leaving.id, title: 'Kept after its agent leaves' });
      const list = await api.get('/api/public/listings');
      const { invalidations } = await withCacheInvalidations(async () => {
        expect((await api.put('/api/auth/me', { token: leaving.token, json: { name: 'Renamed Agent', website: 'https://agent.example' } })).status).toBe(200);
        expect((await api.delete(`/api/auth/agents/${leaving.id}`, { token: shop.admin.token })).status).toBe(200);
      });
      expect(invalidations).toEqual([]);
      expect(await unchangedSince(list, '/api/public/listings')).toBe(true);
    });
  });

  describe('categories', () => {
    it('a create purges the categories, and its replay purges nothing', async () => {
      const create = () =>
        api.post('/api/categories', { token: shop.admin.token, headers: { 'idempotency-key': 'edge-cache-create' }, json: { name: 'PURGED_WATCHES', displayName: 'Purged Watches', icon: 'watch', schemaRules: [] } });
      const first = await withCacheInvalidations(create);
      expect(first.result.status).toBe(201);
      expect(first.invalidations).toEqual([['categories']]);
      const replay = await withCacheInvalidations(create);
      expect(replay.result.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.invalidations).toEqual([]);
    });

    it('an update purges the categories and that category', async () => {
      const category = await buildCategory(server.db);
      const { result, invalidations } = await withCacheInvalidations(() => api.patch(`/api/categories/${category.id}`, { token: shop.admin.token, json: { displayName: 'Renamed Phones' } }));
      expect(result.status).toBe(200);
      expect(invalidations).toEqual([['categories', `category:${category.id}`]]);
    });

    it('a delete purges the categories and that category; a refused one purges nothing', async () => {
      const refused = await withCacheInvalidations(() => api.delete(`/api/categories/${shop.category.id}`, { token: shop.admin.token }));
      expect(refused.result.status).toBe(409);
      expect(refused.invalidations).toEqual([]);
      const category = await buildCategory(server.db);
      const { result, invalidations } = await withCacheInvalidations(() => api.delete(`/api/categories/${category.id}`, { token: shop.admin.token }));
      expect(result.status).toBe(200);
      expect(invalidations).toEqual([['categories', `category:${category.id}`]]);
    });

    it('seeding purges the categories when it creates some, and nothing when they all exist', async () => {
      const first = await withCacheInvalidations(() => api.get('/api/admin/seed-categories', { token: shop.admin.token }));
      expect(first.result.body.data.created.length).toBeGreaterThan(0);
      expect(first.invalidations).toEqual([['categories']]);
      const again = await withCacheInvalidations(() => api.get('/api/admin/seed-categories', { token: shop.admin.token }));
      expect(again.result.body.data.created).toEqual([]);
      expect(again.invalidations).toEqual([]);
    });
  });

  it('a settings write purges the settings, and the next read shows it; a refused one purges nothing', async () => {
    const before = await api.get('/api/settings');
    const { result, invalidations } = await withCacheInvalidations(() => api.put('/api/settings', { token: shop.admin.token, json: { siteName: 'Purged Shop' } }));
    expect(result.status).toBe(200);
    expect(invalidations).toEqual([['settings']]);
    const after = await api.get('/api/settings', { headers: { 'if-none-match': etagOf(before) } });
    expect(after.status).toBe(200);
    expect(after.body.data.siteName).toBe('Purged Shop');
    const refused = await withCacheInvalidations(() => api.put('/api/settings', { token: shop.admin.token, json: { unknownKey: 'x' } }));
    expect(refused.result.status).toBe(400);
    expect(refused.invalidations).toEqual([]);
  });

  it("messenger config writes purge the messenger bot; another platform's config purges nothing", async () => {
    const saved = await withCacheInvalidations(() => api.post('/api/syndication/config', { token: shop.admin.token, json: { platform: 'MESSENGER', botToken: BOT_TOKEN, channelId: '-1005550002222', isActive: true } }));
    expect(saved.result.status).toBe(201);
    expect(saved.invalidations).toEqual([['messenger-bot']]);
    const other = await withCacheInvalidations(() => api.post('/api/syndication/config', { token: shop.admin.token, json: { platform: 'FACEBOOK', botToken: 'facebook-token', channelId: '@shop_page' } }));
    expect(other.result.status).toBe(201);
    expect(other.invalidations).toEqual([]);
    const removed = await withCacheInvalidations(() => api.delete('/api/syndication/config/MESSENGER', { token: shop.admin.token }));
    expect(removed.result.status).toBe(200);
    expect(removed.invalidations).toEqual([['messenger-bot']]);
  });
});
