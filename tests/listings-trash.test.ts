import fs from 'node:fs';
import path from 'node:path';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, imageRemovals, listings, syndicationLogs } from '../lib/db/schema.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { DEFERRED_FROM } from '../lib/listings/read-tuning.js';
import { buildCategory, buildListing, PHONE_RULES } from './support/catalog-factories.js';
import { buildAgent, type TestUser } from './support/factories.js';
import { imageForm, smallPng } from './support/images.js';
import { useLoopbackBotApi } from './support/loopback-bot-api.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const CRON_SECRET = 'trash-sweeper-secret-0123456789abcdef';
const BOT_TOKEN = '123456:trash-token';
const CHANNEL = '@trash_channel';
const bot = useLoopbackBotApi({ token: BOT_TOKEN, channelId: CHANNEL });
const server = useTestServer(() => ({ ...bot.serverEnv(), CRON_SECRET }));
const api = server.api;
const shop = useShop(server);
let png: Buffer;

beforeAll(async () => {
  png = await smallPng();
});

type Category = Awaited<ReturnType<typeof buildCategory>>;

async function rows<T>(query: SQL): Promise<T[]> {
  return ((await server.db.execute(query)) as unknown as { rows: T[] }).rows;
}

async function listingRow(id: string) {
  const [row] = await server.db.select().from(listings).where(eq(listings.id, id));
  return row;
}

async function auditOf(id: string) {
  const entries = await server.db.select().from(auditEntries).where(and(eq(auditEntries.entity, 'listing'), eq(auditEntries.entityId, id)));
  return entries.sort((a, b) => a.at.getTime() - b.at.getTime()).map(({ action, actorId, changes }) => ({ action, actorId, changes }));
}

const fileOf = (ref: string) => path.join(server.uploadDir, path.basename(ref));

/** A listing created through the API by `agent`, with photos when given; posted to the channel after the answer. */
async function createListing(agent: TestUser, category: Category, fields: Record<string, string>, photos: Buffer[] = []) {
  const form = imageForm({ categoryId: category.id, price: '100', ...fields }, photos);
  const created = await api.post('/api/listings', { token: agent.token, form });
  expect(created.status).toBe(201);
  await settleDeferredWork();
  return (await listingRow(created.body.data.id))!;
}

const trash = (id: string, token: string) => api.delete(`/api/listings/${id}`, { token });
const restore = (id: string, token: string) => api.post(`/api/listings/${id}/restore`, { token });
const deleteForGood = (id: string, token: string) => api.delete(`/api/listings/${id}?permanent=true`, { token });
const sweep = () => api.get('/api/cron/sweep', { token: CRON_SECRET });

describe('the trash, seen from the storefront, every list, every count and the search', () => {
  let category: Category;
  let target: Awaited<ReturnType<typeof createListing>>;
  const brand = 'Zephyrion';

  beforeAll(async () => {
    category = await buildCategory(server.db, { schemaRules: PHONE_RULES });
    // More listings than a near page reads, older than the one watched, so deep pages are read from the index alone.
    const older = Array.from({ length: DEFERRED_FROM + 30 }, (_, index) => ({
      title: `Filler ${index}`,
      price: 50,
      categoryId: category.id,
      agentId: shop.otherAgent.id,
      attributes: { brand: 'Filler', model: 'F', storage: '64GB' },
      stockQuantity: 1,
      createdAt: new Date(Date.now() - (index + 1) * 60_000),
    }));
    await server.db.insert(listings).values(older);
    target = await createListing(shop.agent, category, {
      title: `${brand} Quasar 9`,
      description: 'Sealed in its box',
      price: '437',
      stockQuantity: '3',
      attributes: JSON.stringify({ brand, model: 'Quasar 9', storage: '256GB', condition: 'Brand New' }),
    });
    expect((await api.patch(`/api/commissions/listing/${target.id}`, { token: shop.admin.token, json: { commissionPercent: 10 } })).status).toBe(200);
  });

  const ids = (answer: { body: { data: Array<{ id: string }> } }) => answer.body.data.map((item) => item.id);

  /** Everything a shopper, an administrator and the agent see of the listing, or of what it adds to. */
  async function observe() {
    const admin = { token: shop.admin.token };
    const shows = async (url: string, options?: { token: string }) => ids(await api.get(url, options)).includes(target.id);
    const display = encodeURIComponent(category.displayName);
    const options = await api.get(`/api/public/filter-options?category=${display}`);
    const narrowed = await api.get(`/api/public/filter-options?category=${display}&priceMin=400`);
    const priceBand = await api.get(`/api/public/listings?category=${display}&priceMin=400&priceMax=500&page=1`);
    const assets = await api.get('/api/commissions/asset-stats', admin);
    const agents = await api.get('/api/auth/agents?limit=100', admin);
    const adminList = await api.get(`/api/listings?categoryId=${category.id}&limit=5&page=1`, admin);
    const suggestions = await api.get('/api/public/suggest?q=zephy');
    return {
      storefront: {
        nearPage: await shows(`/api/public/listings?category=${display}&limit=5`),
        everyCategory: await shows('/api/public/listings?limit=100'),
        detail: (await api.send('HEAD', `/api/public/listings/${target.id}`)).status,
        relevance: await shows('/api/public/listings?q=zephyrion'),
        newestSearch: await shows('/api/public/listings?q=zephyrion&sort=newest'),
        typo: await shows('/api/public/listings?q=zephirion'),
        description: await shows('/api/public/listings?q=sealed'),
        brandByPrice: await shows(`/api/public/listings?brand=${brand}&sort=price_asc`),
        categoryByPrice: await shows(`/api/public/listings?category=${display}&sort=price_desc&limit=1`),
        priceBand: { shown: ids(priceBand).includes(target.id), total: priceBand.body.pagination.total },
        suggestions: suggestions.body.data,
        filterOptions: { brands: options.body.data.brand.counts, total: options.body.total },
        narrowedTotal: narrowed.body.total,
      },
      counts: {
        category: (await api.get(`/api/categories/${category.id}`)).body.data.listingCount,
        agent: agents.body.data.find((agent: { id: string }) => agent.id === shop.agent.id).listingCount,
        assets: assets.body.data.byCategory.find((entry: { categoryId: string }) => entry.categoryId === category.id),
        commissionedListings: (await api.get('/api/commissions/summary', admin)).body.data.totalListings,
      },
      lists: {
        administrator: { shown: ids(adminList).includes(target.id), total: adminList.body.pagination.total },
        agent: await shows('/api/listings?limit=100', { token: shop.agent.token }),
        commissions: await shows('/api/commissions/listings?commissionFilter=set&limit=100', admin),
      },
      kept: {
        titleWord: (await rows<{ count: number }>(sql`select coalesce(sum(listings), 0)::int as count from search_terms where kind = 'word' and term = 'zephyrion'`))[0]!.count,
      },
    };
  }

  /** The category's deep page newest first, as the obvious statement over the listings out of the trash finds it. */
  async function expectDeepPageAsStraightforward(): Promise<void> {
    const page = Math.floor(DEFERRED_FROM / 100) + 1;
    const answer = await api.get(`/api/public/listings?category=${encodeURIComponent(category.displayName)}&limit=100&page=${page}`);
    expect(answer.headers.get('server-timing')).toContain('plan;desc="newest-index"');
    const expected = await rows<{ id: string }>(sql`select id from listings where "categoryId" = ${category.id} and status = 'AVAILABLE' and "deletedAt" is null
      order by "createdAt" desc, id desc limit 100 offset ${(page - 1) * 100}`);
    expect(ids(answer)).toEqual(expected.map((row) => row.id));
    const inShop = (await listingRow(target.id))!.deletedAt === null;
    expect(answer.body.pagination.total).toBe(DEFERRED_FROM + 30 + (inShop ? 1 : 0));
  }

  it('leaves them all at once, and comes back to them as it was', async () => {
    const before = await observe();
    expect(before).toMatchObject({
      storefront: {
        nearPage: true,
        everyCategory: true,
        detail: 200,
        relevance: true,
        newestSearch: true,
        typo: true,
        description: true,
        brandByPrice: true,
        categoryByPrice: true,
        priceBand: { shown: true, total: 1 },
        suggestions: expect.arrayContaining([{ text: brand, kind: 'brand', count: 1 }]),
        filterOptions: { brands: { Filler: DEFERRED_FROM + 30, [brand]: 1 }, total: DEFERRED_FROM + 31 },
        narrowedTotal: 1,
      },
      counts: { category: DEFERRED_FROM + 31, agent: expect.any(Number), assets: { count: DEFERRED_FROM + 31, totalStock: DEFERRED_FROM + 33 } },
      lists: { administrator: { shown: true, total: DEFERRED_FROM + 31 }, agent: true, commissions: true },
      kept: { titleWord: 1 },
    });
    await expectDeepPageAsStraightforward();
    const stored = await listingRow(target.id);

    const trashed = await trash(target.id, shop.agent.token);
    expect(trashed.status).toBe(200);
    expect(trashed.body).toEqual({ success: true, data: { id: target.id } });
    expect(await observe()).toEqual({
      storefront: {
        nearPage: false,
        everyCategory: false,
        detail: 404,
        relevance: false,
        newestSearch: false,
        typo: false,
        description: false,
        brandByPrice: false,
        categoryByPrice: false,
        priceBand: { shown: false, total: 0 },
        suggestions: [],
        filterOptions: { brands: { Filler: DEFERRED_FROM + 30 }, total: DEFERRED_FROM + 30 },
        narrowedTotal: 0,
      },
      counts: {
        category: DEFERRED_FROM + 30,
        agent: before.counts.agent - 1,
        assets: {
          ...before.counts.assets,
          count: DEFERRED_FROM + 30,
          totalValue: before.counts.assets.totalValue - 437,
          totalStock: DEFERRED_FROM + 30,
          statusCounts: { ...before.counts.assets.statusCounts, AVAILABLE: DEFERRED_FROM + 30 },
        },
        commissionedListings: before.counts.commissionedListings - 1,
      },
      lists: { administrator: { shown: false, total: DEFERRED_FROM + 30 }, agent: false, commissions: false },
      kept: { titleWord: 0 },
    });
    await expectDeepPageAsStraightforward();
    // Every field stays as it was, for a restore.
    expect(await listingRow(target.id)).toEqual({ ...stored, deletedAt: expect.any(Date) });

    const restored = await restore(target.id, shop.agent.token);
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ id: target.id, status: 'AVAILABLE', stockQuantity: 3, price: 437, deletedAt: null, commissionPercent: 10 });
    expect(await observe()).toEqual(before);
    expect(await listingRow(target.id)).toEqual(stored);
    await expectDeepPageAsStraightforward();
  });
});

describe('the channel post of a listing in the trash', () => {
  it('is deleted when the listing goes to the trash, and an available listing is posted again when it comes back', async () => {
    const listing = await createListing(shop.agent, shop.category, { title: 'Channel Pixel', attributes: JSON.stringify({ brand: 'Google', model: 'Pixel 9', storage: '128GB' }) });
    const [first] = bot.callsTo('sendMessage').filter((call) => call.text?.includes('Channel Pixel'));
    const posted = first!.result.message_id as number;
    expect(bot.messagesIn(CHANNEL).has(posted)).toBe(true);
    bot.reset();

    expect((await trash(listing.id, shop.agent.token)).status).toBe(200);
    await settleDeferredWork();
    expect(bot.calls.map((call) => [call.method, call.chatId, call.params.message_ids])).toEqual([['deleteMessages', CHANNEL, [posted]]]);
    expect(bot.messagesIn(CHANNEL).has(posted)).toBe(false);
    bot.reset();

    expect((await restore(listing.id, shop.agent.token)).status).toBe(200);
    await settleDeferredWork();
    expect(bot.calls.map((call) => call.method)).toEqual(['sendMessage']);
    const reposted = bot.calls[0]!.result.message_id as number;
    expect(bot.calls[0]!.text).toContain('Channel Pixel');
    expect(bot.messagesIn(CHANNEL).has(reposted)).toBe(true);
    const entries = await server.db.select().from(syndicationLogs).where(eq(syndicationLogs.listingId, listing.id));
    expect(entries.map(({ action, status, messageId }) => ({ action, status, messageId })).sort((a, b) => a.messageId! - b.messageId!)).toEqual([
      { action: 'NEW_POST', status: 'SUCCESS', messageId: posted },
      { action: 'NEW_POST', status: 'SUCCESS', messageId: reposted },
    ]);
  });

  it('is not posted again for a listing that comes back sold', async () => {
    const listing = await createListing(shop.agent, shop.category, { title: 'Sold Pixel', stockQuantity: '3', attributes: JSON.stringify({ brand: 'Google', model: 'Pixel 8', storage: '128GB' }) });
    expect((await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { status: 'SOLD' } })).status).toBe(200);
    expect((await trash(listing.id, shop.agent.token)).status).toBe(200);
    await settleDeferredWork();
    bot.reset();
    const restored = await restore(listing.id, shop.agent.token);
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ status: 'SOLD', deletedAt: null });
    await settleDeferredWork();
    expect(bot.calls).toEqual([]);
  });

  it('that was waiting to be posted is not posted: its entry fails, and the sweeper leaves it', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Waiting Pixel' });
    await server.db.insert(syndicationLogs).values([
      { listingId: listing.id, platform: 'MESSENGER', status: 'PENDING', channelInfo: CHANNEL, runAt: new Date(Date.now() - 5 * 60_000) },
      { listingId: listing.id, platform: 'MESSENGER', status: 'FAILED', channelInfo: CHANNEL, errorMessage: 'Bot API timed out', retryAt: new Date(Date.now() - 60_000) },
    ]);
    expect((await trash(listing.id, shop.agent.token)).status).toBe(200);
    await settleDeferredWork();
    bot.reset();
    expect((await sweep()).status).toBe(200);
    expect(bot.calls).toEqual([]);
    const entries = await server.db.select().from(syndicationLogs).where(eq(syndicationLogs.listingId, listing.id));
    expect(entries.map(({ status, errorMessage, retryAt }) => ({ status, errorMessage, retryAt })).sort((a, b) => a.errorMessage!.localeCompare(b.errorMessage!))).toEqual([
      { status: 'FAILED', errorMessage: 'Bot API timed out', retryAt: null },
      { status: 'FAILED', errorMessage: 'The listing left the shop before the post went out', retryAt: null },
    ]);
  });
});

describe('GET /api/listings?trashed=true', () => {
  let agent: TestUser;
  let other: TestUser;
  let category: Category;

  beforeAll(async () => {
    agent = await buildAgent(server.db);
    other = await buildAgent(server.db);
    category = await buildCategory(server.db);
  });

  it("lists the caller's listings in the trash, newest deletion first, with when each was deleted; an administrator's lists all", async () => {
    const make = (owner: TestUser, title: string, status: 'AVAILABLE' | 'SOLD' = 'AVAILABLE') =>
      buildListing(server.db, { categoryId: category.id, agentId: owner.id, title, status });
    const [first, second, third, kept, others] = [await make(agent, 'Trashed first'), await make(agent, 'Trashed second', 'SOLD'), await make(agent, 'Trashed third'), await make(agent, 'Kept'), await make(other, 'Trashed by another')];
    for (const [listing, owner] of [[first, agent], [second, agent], [third, agent], [others, other]] as const) {
      expect((await trash(listing.id, owner.token)).status).toBe(200);
    }
    const own = await api.get('/api/listings?trashed=true', { token: agent.token });
    expect(own.status).toBe(200);
    expect(own.body.data.map((item: { id: string }) => item.id)).toEqual([third.id, second.id, first.id]);
    expect(own.body.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1, totalExact: true });
    const deletedAt = (await listingRow(third.id))!.deletedAt!;
    expect(own.body.data[0]).toMatchObject({ id: third.id, title: 'Trashed third', deletedAt: deletedAt.toISOString(), category: { id: category.id } });
    expect((await api.get('/api/listings', { token: agent.token })).body.data.map((item: { id: string }) => item.id)).toEqual([kept.id]);

    const all = await api.get(`/api/listings?trashed=true&categoryId=${category.id}`, { token: shop.admin.token });
    expect(all.body.data.map((item: { id: string }) => item.id)).toEqual([others.id, third.id, second.id, first.id]);
    // The list's filters and paging apply.
    const sold = await api.get(`/api/listings?trashed=true&status=SOLD&categoryId=${category.id}`, { token: shop.admin.token });
    expect(sold.body.data.map((item: { id: string }) => item.id)).toEqual([second.id]);
    const searched = await api.get('/api/listings?trashed=true&search=THIRD', { token: agent.token });
    expect(searched.body.data.map((item: { id: string }) => item.id)).toEqual([third.id]);
    const paged = await api.get('/api/listings?trashed=true&limit=2&page=2', { token: agent.token });
    expect(paged.body.data.map((item: { id: string }) => item.id)).toEqual([first.id]);
    expect(paged.body.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2, totalExact: true });
    expect((await api.get('/api/listings?trashed=false', { token: agent.token })).body.data.map((item: { id: string }) => item.id)).toEqual([kept.id]);
  });

  it('refuses a value that is not true or false', async () => {
    const response = await api.get('/api/listings?trashed=yes', { token: shop.agent.token });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED', details: [{ field: 'trashed', message: 'must be true or false', received: 'yes' }] });
  });
});

describe('POST /api/listings/:id/restore', () => {
  it('answers 409 for a listing that is not in the trash, and changes nothing', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id });
    const response = await restore(listing.id, shop.agent.token);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, code: 'CONFLICT', error: 'The listing is not in the trash' });
    expect(await listingRow(listing.id)).toEqual(listing);
    expect(await auditOf(listing.id)).toEqual([]);
  });

  it("answers 404 for another agent's listing, in the trash or not, and for an unknown one", async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.otherAgent.id });
    const notFound = { success: false, code: 'NOT_FOUND', error: `Listing with id "${listing.id}" not found` };
    expect((await restore(listing.id, shop.agent.token)).body).toEqual(notFound);
    expect((await trash(listing.id, shop.otherAgent.token)).status).toBe(200);
    const refused = await restore(listing.id, shop.agent.token);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(notFound);
    expect((await listingRow(listing.id))!.deletedAt).toBeInstanceOf(Date);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await restore(unknown, shop.admin.token)).body).toEqual({ success: false, code: 'NOT_FOUND', error: `Listing with id "${unknown}" not found` });
    expect((await restore('not-a-uuid', shop.admin.token)).status).toBe(400);
    expect((await api.post(`/api/listings/${listing.id}/restore`)).status).toBe(401);
  });

  it("lets an administrator restore any agent's listing", async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.otherAgent.id, title: 'Back by an administrator' });
    expect((await trash(listing.id, shop.otherAgent.token)).status).toBe(200);
    const response = await restore(listing.id, shop.admin.token);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id: listing.id, title: 'Back by an administrator', agentId: shop.otherAgent.id, deletedAt: null });
    expect(await listingRow(listing.id)).toEqual(listing);
  });

  it('of two at once, restores once: the other answers 409 and nothing is counted or posted twice', async () => {
    const category = await buildCategory(server.db);
    const listing = await createListing(shop.agent, category, { title: 'Twice Pixel', attributes: JSON.stringify({ brand: 'Google', model: 'Pixel 7', storage: '128GB' }) });
    expect((await trash(listing.id, shop.agent.token)).status).toBe(200);
    await settleDeferredWork();
    bot.reset();
    const answers = await Promise.all([restore(listing.id, shop.agent.token), restore(listing.id, shop.admin.token)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    await settleDeferredWork();
    expect((await api.get(`/api/categories/${category.id}`)).body.data.listingCount).toBe(1);
    const [totals] = await rows<{ listings: number }>(sql`select sum(listings)::int as listings from listing_totals where "categoryId" = ${category.id}`);
    expect(totals!.listings).toBe(1);
    expect((await auditOf(listing.id)).map((entry) => entry.action)).toEqual(['create', 'trash', 'restore']);
    expect(bot.callsTo('sendMessage')).toHaveLength(1);
  });
});

describe('DELETE /api/listings/:id?permanent=true', () => {
  it('removes a listing out of the trash for good when an administrator asks, through the trash: its row, files and channel post go, one audit entry a step', async () => {
    const listing = await createListing(shop.agent, shop.category, { title: 'Gone Pixel', attributes: JSON.stringify({ brand: 'Google', model: 'Pixel 6', storage: '128GB' }) }, [png, png]);
    expect(listing.images).toHaveLength(2);
    for (const ref of listing.images) expect(fs.existsSync(fileOf(ref))).toBe(true);
    const posted = bot.callsTo('sendMediaGroup').at(-1)!.result.map((message: { message_id: number }) => message.message_id) as number[];
    bot.reset();

    const response = await deleteForGood(listing.id, shop.admin.token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { id: listing.id } });
    expect(await listingRow(listing.id)).toBeUndefined();
    for (const ref of listing.images) expect(fs.existsSync(fileOf(ref))).toBe(false);
    expect(await server.db.select().from(imageRemovals)).toEqual([]);
    await settleDeferredWork();
    expect(bot.callsTo('deleteMessages').flatMap((call) => call.params.message_ids)).toEqual(expect.arrayContaining(posted));
    const audit = await auditOf(listing.id);
    expect(audit.map(({ action, actorId }) => ({ action, actorId }))).toEqual([
      { action: 'create', actorId: shop.agent.id },
      { action: 'trash', actorId: shop.admin.id },
      { action: 'delete', actorId: shop.admin.id },
    ]);
    expect(audit[1]!.changes).toEqual({ deletedAt: { before: null, after: expect.any(String) } });
    const trail = await api.get(`/api/admin/audit?entity=listing&entityId=${listing.id}`, { token: shop.admin.token });
    expect(trail.body.data.map((entry: { action: string }) => entry.action)).toEqual(['delete', 'trash', 'create']);
    expect(audit[2]!.changes).toMatchObject({ title: { before: 'Gone Pixel', after: null }, deletedAt: { before: audit[1]!.changes.deletedAt!.after, after: null } });
  });

  it("lets an agent remove their own listing for good once it is in the trash, and only then", async () => {
    const listing = await createListing(shop.agent, shop.category, { title: 'Own Pixel', attributes: JSON.stringify({ brand: 'Google', model: 'Pixel 5', storage: '128GB' }) }, [png]);
    const early = await deleteForGood(listing.id, shop.agent.token);
    expect(early.status).toBe(409);
    expect(early.body).toEqual({ success: false, code: 'CONFLICT', error: 'Only a listing in the trash can be deleted for good by its agent: delete it without permanent first' });
    expect((await listingRow(listing.id))!.deletedAt).toBeNull();

    expect((await trash(listing.id, shop.agent.token)).status).toBe(200);
    expect(fs.existsSync(fileOf(listing.images[0]!))).toBe(true);
    await settleDeferredWork();
    bot.reset();
    const response = await deleteForGood(listing.id, shop.agent.token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { id: listing.id } });
    expect(await listingRow(listing.id)).toBeUndefined();
    expect(fs.existsSync(fileOf(listing.images[0]!))).toBe(false);
    await settleDeferredWork();
    // Its post went with the move to the trash.
    expect(bot.calls).toEqual([]);
    expect((await auditOf(listing.id)).map((entry) => entry.action)).toEqual(['create', 'trash', 'delete']);
  });

  it("answers 404 for another agent's listing, in the trash or not, and leaves it", async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.otherAgent.id });
    const notFound = { success: false, code: 'NOT_FOUND', error: `Listing with id "${listing.id}" not found` };
    expect((await deleteForGood(listing.id, shop.agent.token)).body).toEqual(notFound);
    expect((await trash(listing.id, shop.otherAgent.token)).status).toBe(200);
    const refused = await deleteForGood(listing.id, shop.agent.token);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(notFound);
    expect(await listingRow(listing.id)).toBeDefined();
  });

  it('refuses a permanent value that is not true or false', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id });
    const response = await api.delete(`/api/listings/${listing.id}?permanent=maybe`, { token: shop.admin.token });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'permanent', message: 'must be true or false' }] });
    expect((await listingRow(listing.id))!.deletedAt).toBeNull();
  });
});

describe('a listing in the trash', () => {
  it('is not found by a second delete, a read, an update or a commission change', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'In the trash' });
    expect((await trash(listing.id, shop.agent.token)).status).toBe(200);
    const trashed = await listingRow(listing.id);
    const notFound = { success: false, code: 'NOT_FOUND', error: `Listing with id "${listing.id}" not found` };
    expect((await trash(listing.id, shop.agent.token)).body).toEqual(notFound);
    expect((await api.get(`/api/listings/${listing.id}`, { token: shop.admin.token })).body).toEqual(notFound);
    expect((await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { title: 'Edited' } })).body).toEqual(notFound);
    expect((await api.patch(`/api/commissions/listing/${listing.id}`, { token: shop.admin.token, json: { commissionPercent: 5 } })).body).toEqual(notFound);
    expect((await api.post(`/api/public/listings/${listing.id}/inquiry`, { json: { method: 'chat' } })).status).toBe(404);
    expect((await api.get(`/api/public/listings/${listing.id}`)).status).toBe(404);
    expect(await listingRow(listing.id)).toEqual(trashed);
  });

  it('outlives the deletion of its category, and then cannot be restored: 409 naming the category', async () => {
    const category = await buildCategory(server.db, { displayName: 'Trashed Tablets' });
    const listing = await buildListing(server.db, { categoryId: category.id, agentId: shop.agent.id, title: 'Tablet left behind' });
    expect((await trash(listing.id, shop.agent.token)).status).toBe(200);
    const deleted = await api.delete(`/api/categories/${category.id}`, { token: shop.admin.token });
    expect(deleted.status).toBe(200);
    expect((await api.get(`/api/categories/${category.id}`, { token: shop.admin.token })).status).toBe(404);

    const inTrash = await api.get('/api/listings?trashed=true&search=Tablet left behind', { token: shop.agent.token });
    expect(inTrash.status).toBe(200);
    expect(inTrash.body.data).toEqual([
      expect.objectContaining({ id: listing.id, categoryId: null, category: null, removedCategory: 'Trashed Tablets', deletedAt: expect.any(String) }),
    ]);

    const refused = await restore(listing.id, shop.agent.token);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      success: false,
      code: 'CONFLICT',
      error: 'Category "Trashed Tablets" was deleted while the listing was in the trash: it cannot be restored',
    });
    expect(await listingRow(listing.id)).toMatchObject({ categoryId: null, removedCategory: 'Trashed Tablets', deletedAt: expect.any(Date) });
    const exported = await api.get<string>(`/api/listings/export?trashed=true&search=${encodeURIComponent('Tablet left behind')}`, { token: shop.agent.token });
    expect(exported.status).toBe(200);
    expect(exported.text).toContain(`${listing.id},Tablet left behind,`);
    expect(exported.text).toContain(',Trashed Tablets,');

    expect((await deleteForGood(listing.id, shop.agent.token)).status).toBe(200);
    expect(await listingRow(listing.id)).toBeUndefined();
  });

  it('keeps a category that a listing in the shop uses: only the trash lets it go', async () => {
    const category = await buildCategory(server.db, { displayName: 'Half Trashed Tablets' });
    const kept = await buildListing(server.db, { categoryId: category.id, agentId: shop.agent.id });
    const trashed = await buildListing(server.db, { categoryId: category.id, agentId: shop.agent.id });
    expect((await trash(trashed.id, shop.agent.token)).status).toBe(200);
    const refused = await api.delete(`/api/categories/${category.id}`, { token: shop.admin.token });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ success: false, code: 'CONFLICT', error: 'Category "Half Trashed Tablets" cannot be deleted: 1 listing uses it' });
    expect(await listingRow(trashed.id)).toMatchObject({ categoryId: category.id, removedCategory: null });
    expect((await restore(trashed.id, shop.agent.token)).status).toBe(200);
    expect(await listingRow(kept.id)).toMatchObject({ categoryId: category.id });
  });
});

describe('the sweeper', () => {
  /** Moves a listing's deletion back by `days` on the database's clock, the one the sweeper reads. */
  const trashedDaysAgo = (id: string, days: number) =>
    server.db.update(listings).set({ deletedAt: sql`now() - make_interval(days => ${days})` }).where(eq(listings.id, id));

  async function trashedWithPhoto(title: string) {
    const listing = await createListing(shop.agent, shop.category, { title, attributes: JSON.stringify({ brand: 'Google', model: 'Pixel 4', storage: '64GB' }) }, [png]);
    expect((await trash(listing.id, shop.agent.token)).status).toBe(200);
    await settleDeferredWork();
    return listing;
  }

  it('removes for good, with their photos, the listings in the trash longer than TRASH_RETENTION_DAYS (30), and keeps the others', async () => {
    const expired = await trashedWithPhoto('Expired Pixel');
    const recent = await trashedWithPhoto('Recent Pixel');
    await trashedDaysAgo(expired.id, 31);
    await trashedDaysAgo(recent.id, 29);
    bot.reset();
    const swept = await sweep();
    expect(swept.status).toBe(200);
    expect(swept.body.data).toMatchObject({ trashedListingsPurged: 1, leftBehindImagesRemoved: 0 });
    expect(await listingRow(expired.id)).toBeUndefined();
    expect(fs.existsSync(fileOf(expired.images[0]!))).toBe(false);
    expect(await listingRow(recent.id)).toBeDefined();
    expect(fs.existsSync(fileOf(recent.images[0]!))).toBe(true);
    expect(await server.db.select().from(imageRemovals)).toEqual([]);
    const audit = await auditOf(expired.id);
    expect(audit.map(({ action, actorId }) => ({ action, actorId }))).toEqual([
      { action: 'create', actorId: shop.agent.id },
      { action: 'trash', actorId: shop.agent.id },
      { action: 'purge', actorId: null },
    ]);
    expect(audit[2]!.changes).toMatchObject({ title: { before: 'Expired Pixel', after: null }, images: { before: expired.images, after: null } });
    // Its channel post went with the move to the trash.
    expect(bot.calls).toEqual([]);
    // The audit trail shows the purge as the service's own.
    const trail = await api.get(`/api/admin/audit?entity=listing&entityId=${expired.id}&action=purge`, { token: shop.admin.token });
    expect(trail.body.data).toEqual([expect.objectContaining({ action: 'purge', actor: { id: null, role: null, email: null }, requestId: null, ip: null })]);
  });

  it('interrupted halfway, leaves every listing of its batch whole, and removes them all on the next sweep', async () => {
    const first = await trashedWithPhoto('Interrupted first');
    const second = await trashedWithPhoto('Interrupted second');
    await trashedDaysAgo(first.id, 40);
    await trashedDaysAgo(second.id, 35);
    // The second listing's audit entry fails inside the purge's transaction, after the first listing's row went.
    await server.db.execute(sql.raw(`create function refuse_purge() returns trigger language plpgsql as $$
      begin if new.action = 'purge' and new."entityId" = '${second.id}' then raise exception 'disk full'; end if; return new; end $$`));
    await server.db.execute(sql`create trigger refuse_purge before insert on audit_entries for each row execute function refuse_purge()`);
    try {
      expect((await sweep()).status).toBe(500);
    } finally {
      await server.db.execute(sql`drop trigger refuse_purge on audit_entries`);
      await server.db.execute(sql`drop function refuse_purge()`);
    }
    for (const listing of [first, second]) {
      expect((await listingRow(listing.id))!.deletedAt).toBeInstanceOf(Date);
      expect(fs.existsSync(fileOf(listing.images[0]!))).toBe(true);
      expect((await auditOf(listing.id)).map((entry) => entry.action)).toEqual(['create', 'trash']);
    }
    expect(await server.db.select().from(imageRemovals)).toEqual([]);

    const swept = await sweep();
    expect(swept.body.data.trashedListingsPurged).toBe(2);
    for (const listing of [first, second]) {
      expect(await listingRow(listing.id)).toBeUndefined();
      expect(fs.existsSync(fileOf(listing.images[0]!))).toBe(false);
    }
  });

  it('deletes the files a removal left behind when its process died after the commit', async () => {
    const listing = await trashedWithPhoto('Left behind');
    const [ref] = listing.images as [string];
    // As a process that died between removing the listing and deleting its files leaves them.
    await server.db.delete(listings).where(eq(listings.id, listing.id));
    await server.db.insert(imageRemovals).values({ ref, queuedAt: sql`now() - interval '2 minutes'` });
    expect(fs.existsSync(fileOf(ref))).toBe(true);
    const swept = await sweep();
    expect(swept.body.data).toMatchObject({ trashedListingsPurged: 0, leftBehindImagesRemoved: 1 });
    expect(fs.existsSync(fileOf(ref))).toBe(false);
    expect(await server.db.select().from(imageRemovals)).toEqual([]);
  });
});

describe('the audit trail of the trash', () => {
  it('records the move to the trash and the restore, each with when it was deleted', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id });
    expect((await trash(listing.id, shop.agent.token)).status).toBe(200);
    const { deletedAt } = (await listingRow(listing.id))!;
    expect((await restore(listing.id, shop.admin.token)).status).toBe(200);
    expect(await auditOf(listing.id)).toEqual([
      { action: 'trash', actorId: shop.agent.id, changes: { deletedAt: { before: null, after: deletedAt!.toISOString() } } },
      { action: 'restore', actorId: shop.admin.id, changes: { deletedAt: { before: deletedAt!.toISOString(), after: null } } },
    ]);
  });
});
