import crypto from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { listings, notifications, syndicationLogs, users, type SchemaRule } from '../lib/db/schema.js';
import { onListingEvent, type ListingEvent } from '../lib/events/listing-events.js';
import { channelPostsOfListing, type ChannelPost } from '../lib/syndication/channel-posts.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { buildCategory, buildListing } from './support/catalog-factories.js';
import { buildAdmin, buildAgent, expiredToken, type TestUser } from './support/factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
const shop = useShop(server);
const events: ListingEvent[] = [];
const postsSeenOnDelete = new Map<string, ChannelPost[]>();

const phoneAttributes = { brand: 'Apple', model: 'iPhone 15', storage: '256GB' };

beforeAll(async () => {
  // Listeners see each event inside the write's transaction: a deleted listing's rows are still there.
  onListingEvent(async () => async (event, tx) => {
    events.push(event);
    if (event.type === 'listing.deleted') postsSeenOnDelete.set(event.listingId, await channelPostsOfListing(tx, event.listingId));
    return undefined;
  });
});

function form(fields: Record<string, string>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

async function listingRow(id: string) {
  const [row] = await server.db.select().from(listings).where(eq(listings.id, id));
  return row;
}

async function listingsTitled(title: string) {
  return server.db.select().from(listings).where(eq(listings.title, title));
}

async function notificationsOf(userId: string, listingId: string) {
  const rows = await server.db.select().from(notifications).where(eq(notifications.userId, userId));
  return rows.filter((row) => (row.data as { listingId?: string } | null)?.listingId === listingId);
}

async function deletedUserToken(): Promise<string> {
  const gone = await buildAgent(server.db);
  await server.db.delete(users).where(eq(users.id, gone.id));
  return gone.token;
}

const unknownId = () => crypto.randomUUID();

describe('POST /api/listings', () => {
  describe('happy path', () => {
    it('creates an agent listing from multipart fields, owned by the caller, with numbers and attributes coerced', async () => {
      const response = await api.post('/api/listings', {
        token: shop.agent.token,
        form: form({
          title: 'iPhone 15 128GB',
          description: 'Barely used',
          price: '1299.50',
          categoryId: shop.category.id,
          attributes: JSON.stringify({ ...phoneAttributes, batteryHealth: '92', hasWarranty: 'true' }),
        }),
      });
      expect(response.status).toBe(201);
      const listing = response.body.data;
      expect(listing).toMatchObject({
        title: 'iPhone 15 128GB',
        description: 'Barely used',
        price: 1299.5,
        status: 'AVAILABLE',
        stockQuantity: 1,
        images: [],
        viewsCount: 0,
        inquiryClicks: 0,
        commissionPercent: null,
        customTelegramCaption: null,
        categoryId: shop.category.id,
        agentId: shop.agent.id,
        attributes: { ...phoneAttributes, batteryHealth: 92, hasWarranty: true },
        category: { id: shop.category.id, name: shop.category.name, displayName: shop.category.displayName, icon: shop.category.icon },
        agent: { id: shop.agent.id, name: shop.agent.name, phone: shop.agent.phone },
      });
      expect(response.body.success).toBe(true);
      const row = await listingRow(listing.id);
      expect(row).toMatchObject({ title: 'iPhone 15 128GB', price: 1299.5, agentId: shop.agent.id, stockQuantity: 1, status: 'AVAILABLE' });
      expect(row!.attributes).toEqual({ ...phoneAttributes, batteryHealth: 92, hasWarranty: true });
    });

    it('accepts a JSON body with attributes as an object and every optional field', async () => {
      const response = await api.post('/api/listings', {
        token: shop.agent.token,
        json: {
          title: 'Pixel 8',
          price: 499,
          categoryId: shop.category.id,
          status: 'PENDING',
          stockQuantity: 4,
          customTelegramCaption: 'Hot deal',
          city: 'Addis Ababa',
          neighborhood: 'Bole',
          attributes: { ...phoneAttributes, condition: 'Used - Good', batteryHealth: 88, hasWarranty: false },
        },
      });
      expect(response.status).toBe(201);
      expect(response.body.data).toMatchObject({
        price: 499,
        status: 'PENDING',
        stockQuantity: 4,
        customTelegramCaption: 'Hot deal',
        city: 'Addis Ababa',
        neighborhood: 'Bole',
        attributes: { ...phoneAttributes, condition: 'Used - Good', batteryHealth: 88, hasWarranty: false },
      });
      expect(await listingRow(response.body.data.id)).toMatchObject({ status: 'PENDING', stockQuantity: 4, city: 'Addis Ababa' });
    });

    it('lets an administrator create a listing for an agent', async () => {
      const response = await api.post('/api/listings', {
        token: shop.admin.token,
        json: { title: 'Galaxy S24', price: '899.99', categoryId: shop.category.id, agentId: shop.agent.id, attributes: phoneAttributes },
      });
      expect(response.status).toBe(201);
      expect(response.body.data).toMatchObject({ agentId: shop.agent.id, agent: { id: shop.agent.id, name: shop.agent.name, phone: shop.agent.phone } });
      expect(await listingRow(response.body.data.id)).toMatchObject({ agentId: shop.agent.id, price: 899.99 });
    });

    it("notifies the listing's agent and every administrator when an agent creates a listing", async () => {
      const secondAdmin = await buildAdmin(server.db);
      const response = await api.post('/api/listings', {
        token: shop.agent.token,
        json: { title: 'Notified Phone', price: 10, categoryId: shop.category.id, attributes: phoneAttributes },
      });
      expect(response.status).toBe(201);
      const id = response.body.data.id;
      for (const user of [shop.agent, shop.admin, secondAdmin]) {
        const received = await notificationsOf(user.id, id);
        expect(received).toHaveLength(1);
        expect(received[0]).toMatchObject({ type: 'LISTING_CREATED', isRead: false, data: { listingId: id } });
        expect(received[0]!.body).toContain('"Notified Phone"');
      }
      expect(await notificationsOf(shop.otherAgent.id, id)).toHaveLength(0);
    });

    it('notifies only the agent when an administrator creates the listing', async () => {
      const response = await api.post('/api/listings', {
        token: shop.admin.token,
        json: { title: 'Admin Made', price: 10, categoryId: shop.category.id, agentId: shop.agent.id, attributes: phoneAttributes },
      });
      const id = response.body.data.id;
      expect(await notificationsOf(shop.agent.id, id)).toMatchObject([{ type: 'LISTING_CREATED' }]);
      expect(await notificationsOf(shop.admin.id, id)).toHaveLength(0);
    });

    it('emits listing.created once the listing is stored', async () => {
      const response = await api.post('/api/listings', {
        token: shop.agent.token,
        json: { title: 'Evented', price: 1, categoryId: shop.category.id, attributes: phoneAttributes },
      });
      await settleDeferredWork();
      expect(events).toContainEqual({ type: 'listing.created', listingId: response.body.data.id });
    });
  });

  describe('errors', () => {
    it('names every missing required field, in the spec order', async () => {
      const response = await api.post('/api/listings', { token: shop.admin.token, form: form({ description: 'only this' }) });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ success: false, code: 'VALIDATION_FAILED', error: 'Missing required fields: title, price, categoryId, agentId' });
    });

    it('names only the fields that are missing, treating blank form values as missing', async () => {
      const response = await api.post('/api/listings', { token: shop.agent.token, form: form({ title: '   ', price: '12', categoryId: '' }) });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('Missing required fields: title, categoryId');
      expect(await listingsTitled('   ')).toHaveLength(0);
    });

    it('refuses a price that is not a number', async () => {
      const response = await api.post('/api/listings', {
        token: shop.agent.token,
        form: form({ title: 'Bad price', price: 'cheap', categoryId: shop.category.id }),
      });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([expect.objectContaining({ field: 'price', received: 'cheap' })]);
      expect(await listingsTitled('Bad price')).toHaveLength(0);
    });

    it('refuses a status outside the four', async () => {
      const response = await api.post('/api/listings', {
        token: shop.agent.token,
        json: { title: 'Bad status', price: 1, categoryId: shop.category.id, status: 'GONE', attributes: phoneAttributes },
      });
      expect(response.status).toBe(400);
      expect(response.body.details[0]).toMatchObject({ field: 'status', message: 'must be one of AVAILABLE, PENDING, SOLD, ARCHIVED' });
    });

    it('refuses attributes that are not a JSON object', async () => {
      const response = await api.post('/api/listings', {
        token: shop.agent.token,
        form: form({ title: 'Bad json', price: '1', categoryId: shop.category.id, attributes: '{not json' }),
      });
      expect(response.status).toBe(400);
      expect(response.body.details[0]).toMatchObject({ field: 'attributes', message: 'must be a JSON object' });
    });

    it('answers 404 for a category that does not exist', async () => {
      const missing = unknownId();
      const response = await api.post('/api/listings', { token: shop.agent.token, json: { title: 'No category', price: 1, categoryId: missing } });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: `Category with id "${missing}" not found` });
    });

    it('answers 404 when an administrator names an agent that does not exist', async () => {
      const missing = unknownId();
      const response = await api.post('/api/listings', {
        token: shop.admin.token,
        json: { title: 'Nobody', price: 1, categoryId: shop.category.id, agentId: missing, attributes: phoneAttributes },
      });
      expect(response.status).toBe(404);
      expect(response.body.error).toBe(`User with id "${missing}" not found`);
      expect(await listingsTitled('Nobody')).toHaveLength(0);
    });

    it('reports every attribute that breaks the category rules with 422', async () => {
      const response = await api.post('/api/listings', {
        token: shop.agent.token,
        form: form({
          title: 'Rule breaker',
          price: '1',
          categoryId: shop.category.id,
          attributes: JSON.stringify({ brand: 'Apple', storage: '3TB', batteryHealth: 'high', hasWarranty: 'yes', colour: 'red' }),
        }),
      });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        success: false,
        code: 'ATTRIBUTES_INVALID',
        error: 'Listing attributes validation failed',
        details: [
          { field: 'model', message: 'is required', received: null },
          { field: 'storage', message: 'must be one of: 64GB, 128GB, 256GB, 512GB, 1TB', received: '3TB' },
          { field: 'batteryHealth', message: 'must be a number', received: 'high' },
          { field: 'hasWarranty', message: 'must be true or false', received: 'yes' },
          { field: 'colour', message: 'is not an attribute of this category', received: 'red' },
        ],
      });
      expect(await listingsTitled('Rule breaker')).toHaveLength(0);
    });

    it('does not coerce values a form cannot have produced', async () => {
      const response = await api.post('/api/listings', {
        token: shop.agent.token,
        json: { title: 'Typed', price: 1, categoryId: shop.category.id, attributes: { ...phoneAttributes, model: 15, hasWarranty: 1 } },
      });
      expect(response.status).toBe(422);
      expect(response.body.details).toEqual([
        { field: 'model', message: 'must be a string', received: 15 },
        { field: 'hasWarranty', message: 'must be true or false', received: 1 },
      ]);
    });
  });

  describe('security', () => {
    const body = () => ({ title: 'Secured', price: 1, categoryId: shop.category.id, attributes: phoneAttributes });

    it('refuses a request without a token', async () => {
      const response = await api.post('/api/listings', { json: body() });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Missing or malformed Authorization header' });
    });

    it('refuses a malformed token', async () => {
      const response = await api.post('/api/listings', { token: 'not.a.jwt', json: body() });
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('Invalid token');
    });

    it('refuses an expired token', async () => {
      const response = await api.post('/api/listings', { token: await expiredToken(shop.agent), json: body() });
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('Token has expired');
    });

    it('refuses the token of a deleted user', async () => {
      const response = await api.post('/api/listings', { token: await deletedUserToken(), json: body() });
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('User no longer exists');
    });

    it("forbids an agent to create a listing in another agent's name", async () => {
      const response = await api.post('/api/listings', { token: shop.agent.token, json: { ...body(), title: 'Impostor', agentId: shop.otherAgent.id } });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Not authorized' });
      expect(await listingsTitled('Impostor')).toHaveLength(0);
    });
  });
});

describe('GET /api/listings', () => {
  let listCategory: Awaited<ReturnType<typeof buildCategory>>;
  let owner: TestUser;
  let rival: TestUser;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    listCategory = await buildCategory(server.db, { displayName: 'Listed things' });
    owner = await buildAgent(server.db, { name: 'Owner', phone: '+15550102' });
    rival = await buildAgent(server.db, { name: 'Rival' });
    const base = Date.now() - 60_000;
    const seed = [
      { key: 'oldest', title: 'Nokia 3310', price: 50, status: 'AVAILABLE', agentId: owner.id, city: 'Addis Ababa', neighborhood: 'Bole' },
      { key: 'discount', title: 'Phone at 100% off', price: 150, status: 'SOLD', agentId: owner.id, city: 'ADDIS ABABA', neighborhood: 'Piassa' },
      { key: 'plain', title: 'Phone at 1000 off', price: 300, status: 'AVAILABLE', agentId: rival.id, city: 'Adama', neighborhood: 'Bole' },
      { key: 'underscore', title: 'Model X_1', price: 700, status: 'PENDING', agentId: owner.id, description: 'Ships with a case' },
      { key: 'orphan', title: 'Orphaned tablet', price: 900, status: 'AVAILABLE', agentId: null, description: 'Agent left' },
    ] as const;
    for (const [index, item] of seed.entries()) {
      const { key, ...values } = item;
      const row = await buildListing(server.db, { ...values, categoryId: listCategory.id, createdAt: new Date(base + index * 1000) });
      ids[key] = row.id;
    }
  });

  const listedIds = (response: { body: { data: Array<{ id: string }> } }) => response.body.data.map((item) => item.id);

  describe('happy path', () => {
    it('pages all listings newest first for an administrator', async () => {
      const first = await api.get(`/api/listings?categoryId=${listCategory.id}&limit=2`, { token: shop.admin.token });
      expect(first.status).toBe(200);
      expect(listedIds(first)).toEqual([ids.orphan, ids.underscore]);
      expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3, totalExact: true });
      const last = await api.get(`/api/listings?categoryId=${listCategory.id}&limit=2&page=3`, { token: shop.admin.token });
      expect(listedIds(last)).toEqual([ids.oldest]);
      expect(last.body.pagination).toEqual({ page: 3, limit: 2, total: 5, totalPages: 3, totalExact: true });
    });

    it('uses a page size of 20 by default', async () => {
      const response = await api.get('/api/listings', { token: shop.admin.token });
      expect(response.body.pagination).toMatchObject({ page: 1, limit: 20 });
    });

    it('shows an agent only their own listings', async () => {
      const response = await api.get('/api/listings', { token: owner.token });
      expect(listedIds(response)).toEqual([ids.underscore, ids.discount, ids.oldest]);
      expect(response.body.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1, totalExact: true });
    });

    it('carries each listing with its category, its agent (null when gone) and numeric prices', async () => {
      const response = await api.get(`/api/listings?categoryId=${listCategory.id}`, { token: shop.admin.token });
      const byId = new Map(response.body.data.map((item: { id: string }) => [item.id, item]));
      expect(byId.get(ids.oldest)).toMatchObject({
        price: 50,
        category: { id: listCategory.id, name: listCategory.name, displayName: 'Listed things', icon: listCategory.icon },
        agent: { id: owner.id, name: 'Owner', phone: '+15550102' },
      });
      expect(byId.get(ids.orphan)).toMatchObject({ agentId: null, agent: null });
    });

    it('filters by status, category and price bounds', async () => {
      const byStatus = await api.get(`/api/listings?categoryId=${listCategory.id}&status=AVAILABLE`, { token: shop.admin.token });
      expect(listedIds(byStatus)).toEqual([ids.orphan, ids.plain, ids.oldest]);
      const byPrice = await api.get(`/api/listings?categoryId=${listCategory.id}&minPrice=150&maxPrice=700`, { token: shop.admin.token });
      expect(listedIds(byPrice)).toEqual([ids.underscore, ids.plain, ids.discount]);
    });

    it('searches title and description case-insensitively, taking % and _ literally', async () => {
      const scoped = `/api/listings?categoryId=${listCategory.id}`;
      const percent = await api.get(`${scoped}&search=${encodeURIComponent('100%')}`, { token: shop.admin.token });
      expect(listedIds(percent)).toEqual([ids.discount]);
      const underscore = await api.get(`${scoped}&search=${encodeURIComponent('x_1')}`, { token: shop.admin.token });
      expect(listedIds(underscore)).toEqual([ids.underscore]);
      const description = await api.get(`${scoped}&search=SHIPS%20WITH`, { token: shop.admin.token });
      expect(listedIds(description)).toEqual([ids.underscore]);
    });

    it('filters by city ignoring case, and by neighborhood', async () => {
      const city = await api.get(`/api/listings?categoryId=${listCategory.id}&city=addis%20ababa`, { token: shop.admin.token });
      expect(listedIds(city)).toEqual([ids.discount, ids.oldest]);
      const both = await api.get(`/api/listings?categoryId=${listCategory.id}&city=Addis%20Ababa&neighborhood=bole`, { token: shop.admin.token });
      expect(listedIds(both)).toEqual([ids.oldest]);
    });

    it('keeps filters inside the agent scope', async () => {
      const response = await api.get('/api/listings?neighborhood=Bole', { token: owner.token });
      expect(listedIds(response)).toEqual([ids.oldest]);
    });

    it('treats empty filter values as absent', async () => {
      const response = await api.get('/api/listings?status=&search=&categoryId=&minPrice=', { token: owner.token });
      expect(response.status).toBe(200);
      expect(response.body.pagination.total).toBe(3);
    });
  });

  describe('errors', () => {
    it.each([
      ['limit=0', 'limit'],
      ['page=0', 'page'],
      ['status=LOST', 'status'],
      ['minPrice=cheap', 'minPrice'],
      ['categoryId=nope', 'categoryId'],
      ['search=%00', 'search'],
    ])('refuses the query %s with 400', async (query, field) => {
      const response = await api.get(`/api/listings?${query}`, { token: shop.admin.token });
      expect(response.status).toBe(400);
      expect(response.body.details[0].field).toBe(field);
    });
  });

  describe('security', () => {
    it('refuses a request without a token', async () => {
      const response = await api.get('/api/listings');
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('Missing or malformed Authorization header');
    });

    it('refuses a malformed token', async () => {
      const response = await api.get('/api/listings', { token: 'not.a.jwt' });
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('Invalid token');
    });

    it('refuses an expired token', async () => {
      const response = await api.get('/api/listings', { token: await expiredToken(owner) });
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('Token has expired');
    });

    it('refuses the token of a deleted user', async () => {
      const response = await api.get('/api/listings', { token: await deletedUserToken() });
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('User no longer exists');
    });
  });
});

describe('GET /api/listings/:id', () => {
  it('returns the listing and counts each view atomically', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Viewed' });
    const first = await api.get(`/api/listings/${listing.id}`, { token: shop.agent.token });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ id: listing.id, title: 'Viewed', viewsCount: 1, price: 999.99, category: { id: shop.category.id }, agent: { id: shop.agent.id } });
    await Promise.all([1, 2, 3].map(() => api.get(`/api/listings/${listing.id}`, { token: shop.admin.token })));
    expect((await listingRow(listing.id))!.viewsCount).toBe(4);
  });

  it('answers 404 for an unknown listing', async () => {
    const missing = unknownId();
    const response = await api.get(`/api/listings/${missing}`, { token: shop.admin.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: `Listing with id "${missing}" not found` });
  });

  it('answers 400 for an id that is not a UUID', async () => {
    const response = await api.get('/api/listings/not-a-uuid', { token: shop.admin.token });
    expect(response.status).toBe(400);
    expect(response.body.details[0]).toMatchObject({ field: 'id', message: 'must be a valid UUID' });
  });

  it("forbids an agent to read another agent's listing and does not count the view", async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.otherAgent.id });
    const response = await api.get(`/api/listings/${listing.id}`, { token: shop.agent.token });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Not authorized' });
    expect((await listingRow(listing.id))!.viewsCount).toBe(0);
  });

  it('refuses missing, malformed, expired and orphaned tokens', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id });
    expect((await api.get(`/api/listings/${listing.id}`)).status).toBe(401);
    expect((await api.get(`/api/listings/${listing.id}`, { token: 'not.a.jwt' })).body.error).toBe('Invalid token');
    expect((await api.get(`/api/listings/${listing.id}`, { token: await expiredToken(shop.agent) })).body.error).toBe('Token has expired');
    expect((await api.get(`/api/listings/${listing.id}`, { token: await deletedUserToken() })).body.error).toBe('User no longer exists');
    expect((await listingRow(listing.id))!.viewsCount).toBe(0);
  });
});

describe('PATCH /api/listings/:id', () => {
  const ownListing = (values: Partial<Parameters<typeof buildListing>[1]> = {}) =>
    buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, ...values });

  describe('happy path', () => {
    it('changes the fields sent and keeps the others', async () => {
      const listing = await ownListing({ title: 'Before', price: 100, city: 'Adama' });
      const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { title: 'After', price: 120.25 } });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ id: listing.id, title: 'After', price: 120.25, city: 'Adama', category: { id: shop.category.id }, agent: { id: shop.agent.id } });
      expect(await listingRow(listing.id)).toMatchObject({ title: 'After', price: 120.25, city: 'Adama', description: listing.description });
    });

    it('reads numbers from multipart strings and clears a caption sent empty', async () => {
      const listing = await ownListing({ stockQuantity: 2 });
      await server.db.update(listings).set({ customTelegramCaption: 'Old caption' }).where(eq(listings.id, listing.id));
      const response = await api.patch(`/api/listings/${listing.id}`, {
        token: shop.agent.token,
        form: form({ price: '15.5', stockQuantity: '7', customTelegramCaption: '' }),
      });
      expect(response.status).toBe(200);
      expect(await listingRow(listing.id)).toMatchObject({ price: 15.5, stockQuantity: 7, customTelegramCaption: null });
    });

    it('notifies the agent of the update and emits listing.updated', async () => {
      const listing = await ownListing();
      await api.patch(`/api/listings/${listing.id}`, { token: shop.admin.token, json: { description: 'Now with charger' } });
      await settleDeferredWork();
      expect(await notificationsOf(shop.agent.id, listing.id)).toMatchObject([{ type: 'LISTING_UPDATED', data: { listingId: listing.id } }]);
      expect(events).toContainEqual({ type: 'listing.updated', listingId: listing.id });
    });

    it('validates new attributes against the current category when no categoryId is sent', async () => {
      const listing = await ownListing();
      const accepted = await api.patch(`/api/listings/${listing.id}`, {
        token: shop.agent.token,
        form: form({ attributes: JSON.stringify({ ...phoneAttributes, batteryHealth: '80' }) }),
      });
      expect(accepted.status).toBe(200);
      expect((await listingRow(listing.id))!.attributes).toEqual({ ...phoneAttributes, batteryHealth: 80 });
    });

    it('lets an administrator move a listing to another agent', async () => {
      const listing = await ownListing();
      const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.admin.token, json: { agentId: shop.otherAgent.id } });
      expect(response.status).toBe(200);
      expect(response.body.data.agent).toEqual({ id: shop.otherAgent.id, name: shop.otherAgent.name, phone: shop.otherAgent.phone });
      expect((await listingRow(listing.id))!.agentId).toBe(shop.otherAgent.id);
    });

    it('sets any of the four statuses directly', async () => {
      const listing = await ownListing({ stockQuantity: 3 });
      for (const status of ['PENDING', 'ARCHIVED', 'AVAILABLE'] as const) {
        const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { status } });
        expect(response.body.data.status).toBe(status);
        expect(await listingRow(listing.id)).toMatchObject({ status, stockQuantity: 3 });
      }
    });
  });

  describe('category change', () => {
    const sizeRules: SchemaRule[] = [
      { field: 'brand', type: 'string', required: true },
      { field: 'size', type: 'select', required: true, options: ['S', 'M', 'L'] },
    ];

    it('re-validates the stored attributes against the new category', async () => {
      const target = await buildCategory(server.db, { schemaRules: sizeRules });
      const listing = await ownListing();
      const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { categoryId: target.id } });
      expect(response.status).toBe(422);
      expect(response.body.details).toEqual([
        { field: 'size', message: 'is required', received: null },
        { field: 'model', message: 'is not an attribute of this category', received: 'iPhone 15 Pro' },
        { field: 'storage', message: 'is not an attribute of this category', received: '256GB' },
      ]);
      expect((await listingRow(listing.id))!.categoryId).toBe(shop.category.id);
    });

    it('accepts the category change with attributes that fit it', async () => {
      const target = await buildCategory(server.db, { schemaRules: sizeRules });
      const listing = await ownListing();
      const response = await api.patch(`/api/listings/${listing.id}`, {
        token: shop.agent.token,
        json: { categoryId: target.id, attributes: { brand: 'Acme', size: 'M' } },
      });
      expect(response.status).toBe(200);
      expect(response.body.data.category.id).toBe(target.id);
      expect(await listingRow(listing.id)).toMatchObject({ categoryId: target.id, attributes: { brand: 'Acme', size: 'M' } });
    });
  });

  describe('selling', () => {
    it('decrements the stock by one and marks the listing SOLD, notifying the agent', async () => {
      const listing = await ownListing({ stockQuantity: 3 });
      const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { status: 'SOLD' } });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ status: 'SOLD', stockQuantity: 2 });
      expect(await listingRow(listing.id)).toMatchObject({ status: 'SOLD', stockQuantity: 2 });
      const types = (await notificationsOf(shop.agent.id, listing.id)).map((item) => item.type).sort();
      expect(types).toEqual(['LISTING_SOLD', 'LISTING_UPDATED']);
    });

    it('archives the listing when the last item is sold, and refuses a sale with no stock left, changing nothing', async () => {
      const listing = await ownListing({ stockQuantity: 1 });
      const last = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, form: form({ status: 'SOLD' }) });
      expect(last.body.data).toMatchObject({ status: 'ARCHIVED', stockQuantity: 0 });
      const before = await listingRow(listing.id);
      const again = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { status: 'SOLD', title: 'Not applied' } });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ success: false, code: 'CONFLICT', error: 'No stock left to sell' });
      expect(await listingRow(listing.id)).toEqual(before);
    });

    it('refuses a sale of a listing whose stock is 0 even when it is not archived', async () => {
      const listing = await ownListing({ stockQuantity: 0, status: 'PENDING' });
      const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { status: 'SOLD' } });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ success: false, code: 'CONFLICT', error: 'No stock left to sell' });
      expect(await listingRow(listing.id)).toMatchObject({ status: 'PENDING', stockQuantity: 0 });
    });

    it('sells from the quantity sent in the same update', async () => {
      const listing = await ownListing({ stockQuantity: 1 });
      const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { status: 'SOLD', stockQuantity: 5 } });
      expect(response.body.data).toMatchObject({ status: 'SOLD', stockQuantity: 4 });
    });

    it('never loses a decrement to concurrent updates of other fields', async () => {
      const listing = await ownListing({ stockQuantity: 50 });
      const sales = Array.from({ length: 10 }, () => api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { status: 'SOLD' } }));
      const edits = Array.from({ length: 10 }, (_, index) => api.patch(`/api/listings/${listing.id}`, { token: shop.admin.token, json: { title: `Edit ${index}` } }));
      const responses = await Promise.all([...sales, ...edits]);
      expect(responses.every((response) => response.status === 200)).toBe(true);
      expect(await listingRow(listing.id)).toMatchObject({ stockQuantity: 40, status: 'SOLD' });
    });
  });

  describe('errors', () => {
    it('refuses an update with no fields', async () => {
      const listing = await ownListing();
      const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: {} });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('No fields to update');
    });

    it('refuses an empty title', async () => {
      const listing = await ownListing({ title: 'Keep me' });
      const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, form: form({ title: ' ' }) });
      expect(response.status).toBe(400);
      expect(response.body.details[0]).toMatchObject({ field: 'title', message: 'must not be empty' });
      expect((await listingRow(listing.id))!.title).toBe('Keep me');
    });

    it('answers 422 for attributes that break the current category rules, changing nothing', async () => {
      const listing = await ownListing();
      const response = await api.patch(`/api/listings/${listing.id}`, {
        token: shop.agent.token,
        json: { title: 'Not applied', attributes: { brand: 'Apple', model: 'X', storage: '2GB' } },
      });
      expect(response.status).toBe(422);
      expect(response.body.details).toEqual([{ field: 'storage', message: 'must be one of: 64GB, 128GB, 256GB, 512GB, 1TB', received: '2GB' }]);
      expect((await listingRow(listing.id))!.title).toBe(listing.title);
    });

    it('answers 404 for a category that does not exist', async () => {
      const listing = await ownListing();
      const missing = unknownId();
      const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { categoryId: missing } });
      expect(response.status).toBe(404);
      expect(response.body.error).toBe(`Category with id "${missing}" not found`);
    });

    it('answers 404 for an agent that does not exist', async () => {
      const listing = await ownListing();
      const missing = unknownId();
      const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.admin.token, json: { agentId: missing } });
      expect(response.status).toBe(404);
      expect(response.body.error).toBe(`User with id "${missing}" not found`);
    });

    it('answers 404 for an unknown listing', async () => {
      const missing = unknownId();
      const response = await api.patch(`/api/listings/${missing}`, { token: shop.admin.token, json: { title: 'x' } });
      expect(response.status).toBe(404);
      expect(response.body.error).toBe(`Listing with id "${missing}" not found`);
    });
  });

  describe('security', () => {
    it("forbids an agent to update another agent's listing, changing nothing", async () => {
      const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.otherAgent.id, title: 'Theirs' });
      const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { title: 'Mine now', status: 'SOLD' } });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Not authorized' });
      expect(await listingRow(listing.id)).toMatchObject({ title: 'Theirs', stockQuantity: 1, status: 'AVAILABLE' });
    });

    it('forbids an agent to hand a listing to another agent', async () => {
      const listing = await ownListing();
      const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { agentId: shop.otherAgent.id } });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Not authorized' });
      expect((await listingRow(listing.id))!.agentId).toBe(shop.agent.id);
    });

    it('forbids an agent to update a listing whose agent is gone', async () => {
      const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: null });
      const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { title: 'Claimed' } });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Not authorized' });
      expect(await listingRow(listing.id)).toMatchObject({ title: listing.title, agentId: null });
    });

    it('refuses missing, malformed, expired and orphaned tokens', async () => {
      const listing = await ownListing({ title: 'Untouched' });
      const path = `/api/listings/${listing.id}`;
      const anonymous = await api.patch(path, { json: { title: 'x' } });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Missing or malformed Authorization header' });
      expect((await api.patch(path, { token: 'not.a.jwt', json: { title: 'x' } })).body.error).toBe('Invalid token');
      expect((await api.patch(path, { token: await expiredToken(shop.agent), json: { title: 'x' } })).body.error).toBe('Token has expired');
      expect((await api.patch(path, { token: await deletedUserToken(), json: { title: 'x' } })).body.error).toBe('User no longer exists');
      expect((await listingRow(listing.id))!.title).toBe('Untouched');
    });
  });
});

describe('DELETE /api/listings/:id', () => {
  it('lets the owner move a listing to the trash, its row and logs kept, and records listing.deleted with its channel posts', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Goodbye' });
    await server.db.insert(syndicationLogs).values([
      { listingId: listing.id, platform: 'MESSENGER', status: 'SUCCESS', channelInfo: '@shop', messageId: 42, postMessageIds: [42, 43, 44] },
      { listingId: listing.id, platform: 'MESSENGER', status: 'SUCCESS', action: 'EDITED', channelInfo: '@shop', messageId: 42 },
      { listingId: listing.id, platform: 'MESSENGER', status: 'SUCCESS', channelInfo: '@archive', messageId: 7 },
      { listingId: listing.id, platform: 'MESSENGER', status: 'FAILED', channelInfo: '@shop' },
    ]);
    const response = await api.delete(`/api/listings/${listing.id}`, { token: shop.agent.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { id: listing.id } });
    const trashed = (await listingRow(listing.id))!;
    expect(trashed).toEqual({ ...listing, deletedAt: expect.any(Date) });
    expect(await server.db.select().from(syndicationLogs).where(eq(syndicationLogs.listingId, listing.id))).toHaveLength(4);
    expect((await api.get(`/api/listings/${listing.id}`, { token: shop.agent.token })).status).toBe(404);
    await settleDeferredWork();
    expect(events).toContainEqual({ type: 'listing.deleted', listingId: listing.id });
    expect(postsSeenOnDelete.get(listing.id)).toEqual([
      { channelInfo: '@archive', messageIds: [7] },
      { channelInfo: '@shop', messageIds: [42, 43, 44] },
    ]);
  });

  it("lets an administrator move any agent's listing to the trash", async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.otherAgent.id });
    const response = await api.delete(`/api/listings/${listing.id}`, { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { id: listing.id } });
    expect((await listingRow(listing.id))!.deletedAt).toBeInstanceOf(Date);
  });

  it('answers 404 for an unknown listing', async () => {
    const missing = unknownId();
    const response = await api.delete(`/api/listings/${missing}`, { token: shop.admin.token });
    expect(response.status).toBe(404);
    expect(response.body.error).toBe(`Listing with id "${missing}" not found`);
  });

  it("forbids an agent to delete another agent's listing", async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.otherAgent.id });
    const response = await api.delete(`/api/listings/${listing.id}`, { token: shop.agent.token });
    expect(response.status).toBe(403);
    expect(response.body.error).toBe('Not authorized');
    expect(await listingRow(listing.id)).toBeDefined();
  });

  it('refuses missing, malformed, expired and orphaned tokens', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id });
    const path = `/api/listings/${listing.id}`;
    const anonymous = await api.delete(path);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Missing or malformed Authorization header' });
    expect((await api.delete(path, { token: 'not.a.jwt' })).body.error).toBe('Invalid token');
    expect((await api.delete(path, { token: await expiredToken(shop.agent) })).body.error).toBe('Token has expired');
    expect((await api.delete(path, { token: await deletedUserToken() })).body.error).toBe('User no longer exists');
    expect(await listingRow(listing.id)).toBeDefined();
  });

  it('moves only the listing named to the trash', async () => {
    const kept = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id });
    const doomed = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id });
    await api.delete(`/api/listings/${doomed.id}`, { token: shop.agent.token });
    const inShop = await server.db.select({ id: listings.id }).from(listings).where(and(inArray(listings.id, [kept.id, doomed.id]), isNull(listings.deletedAt)));
    expect(inShop).toEqual([{ id: kept.id }]);
  });
});
