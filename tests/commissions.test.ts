import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { listings, users } from '../lib/db/schema.js';
import { buildCategory, buildListing } from './support/catalog-factories.js';
import { buildAdmin, expiredToken } from './support/factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

const server = useTestServer();
const api = server.api;
const shop = useShop(server);

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

async function storedPercent(id: string) {
  const [row] = await server.db.select({ commissionPercent: listings.commissionPercent, updatedAt: listings.updatedAt }).from(listings).where(eq(listings.id, id));
  return row!;
}

describe('on an empty database', () => {
  beforeAll(async () => {
    // A category without listings stays out of byCategory.
    await buildCategory(server.db, { name: 'EMPTY', displayName: 'Empty' });
  });

  it('reports zero asset statistics', async () => {
    const response = await api.get('/api/commissions/asset-stats', { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: { totalAssets: 0, totalValue: 0, totalStock: 0, AVAILABLE: 0, SOLD: 0, PENDING: 0, ARCHIVED: 0, byCategory: [] },
    });
  });

  it('reports a zero commission summary', async () => {
    const response = await api.get('/api/commissions/summary', { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: { totalListings: 0, totalCommissionPercent: 0, totalEstimatedRevenue: 0, collectedCommission: 0, pendingCommission: 0 },
    });
  });

  it('lists no listings', async () => {
    const response = await api.get('/api/commissions/listings', { token: shop.admin.token });
    expect(response.body).toEqual({ success: true, data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0, totalExact: true } });
  });
});

describe('on a known data set', () => {
  let phones: Awaited<ReturnType<typeof buildCategory>>;
  let laptops: Awaited<ReturnType<typeof buildCategory>>;
  const made: Record<string, Awaited<ReturnType<typeof buildListing>>> = {};

  beforeAll(async () => {
    phones = await buildCategory(server.db, { name: 'PHONES', displayName: 'Phones', icon: 'smartphone' });
    laptops = await buildCategory(server.db, { name: 'LAPTOPS', displayName: 'Laptops', icon: 'laptop' });
    const rows = [
      ['p1', phones.id, 'AVAILABLE', 1000, 2, 10],
      ['p2', phones.id, 'SOLD', 500.5, 0, 5],
      ['p3', phones.id, 'PENDING', 250.25, 1, null],
      ['p4', phones.id, 'ARCHIVED', 99.99, 0, 12.5],
      ['l1', laptops.id, 'AVAILABLE', 1500, 3, 7.25],
      ['l2', laptops.id, 'PENDING', 800, 1, 2.5],
    ] as const;
    for (const [index, [key, categoryId, status, price, stockQuantity, commissionPercent]] of rows.entries()) {
      made[key] = await buildListing(server.db, {
        categoryId,
        agentId: key === 'l2' ? null : shop.agent.id,
        title: `Listing ${key}`,
        status,
        price,
        stockQuantity,
        commissionPercent,
        createdAt: minutesAgo(60 - index),
      });
    }
  });

  const ids = (body: { data: Array<{ id: string }> }) => body.data.map((item) => item.id);
  const newestFirst = () => ['l2', 'l1', 'p4', 'p3', 'p2', 'p1'].map((key) => made[key]!.id);

  describe('GET /api/commissions/asset-stats', () => {
    it('totals every listing and breaks them down by category, largest first', async () => {
      const response = await api.get('/api/commissions/asset-stats', { token: shop.admin.token });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        totalAssets: 6,
        totalValue: 4150.74,
        totalStock: 7,
        AVAILABLE: 2,
        SOLD: 1,
        PENDING: 2,
        ARCHIVED: 1,
        byCategory: [
          {
            categoryId: phones.id,
            categoryName: 'PHONES',
            categoryDisplayName: 'Phones',
            icon: 'smartphone',
            count: 4,
            totalValue: 1850.74,
            totalStock: 3,
            statusCounts: { AVAILABLE: 1, SOLD: 1, PENDING: 1, ARCHIVED: 1 },
          },
          {
            categoryId: laptops.id,
            categoryName: 'LAPTOPS',
            categoryDisplayName: 'Laptops',
            icon: 'laptop',
            count: 2,
            totalValue: 2300,
            totalStock: 4,
            statusCounts: { AVAILABLE: 1, SOLD: 0, PENDING: 1, ARCHIVED: 0 },
          },
        ],
      });
    });
  });

  describe('GET /api/commissions/summary', () => {
    it('sums the commissions of listings that have one, rounded to the cent', async () => {
      const response = await api.get('/api/commissions/summary', { token: shop.admin.token });
      expect(response.status).toBe(200);
      // 100 + 25.025 + 12.49875 + 108.75 + 20; SOLD 25.025; AVAILABLE and PENDING 100 + 108.75 + 20
      expect(response.body.data).toEqual({
        totalListings: 5,
        totalCommissionPercent: 7.45,
        totalEstimatedRevenue: 266.27,
        collectedCommission: 25.03,
        pendingCommission: 228.75,
      });
    });
  });

  describe('GET /api/commissions/listings', () => {
    it('lists every listing newest first with its category, agent and commission amount', async () => {
      const response = await api.get('/api/commissions/listings', { token: shop.admin.token });
      expect(response.status).toBe(200);
      expect(ids(response.body)).toEqual(newestFirst());
      expect(response.body.pagination).toEqual({ page: 1, limit: 20, total: 6, totalPages: 1, totalExact: true });
      const p1 = made.p1!;
      expect(response.body.data[5]).toEqual({
        id: p1.id,
        title: 'Listing p1',
        description: p1.description,
        price: 1000,
        status: 'AVAILABLE',
        city: null,
        neighborhood: null,
        images: [],
        photos: [],
        attributes: p1.attributes,
        customTelegramCaption: null,
        categoryId: phones.id,
        agentId: shop.agent.id,
        viewsCount: 0,
        inquiryClicks: 0,
        stockQuantity: 2,
        commissionPercent: 10,
        createdAt: p1.createdAt.toISOString(),
        updatedAt: p1.updatedAt.toISOString(),
        deletedAt: null,
        removedCategory: null,
        category: { id: phones.id, name: 'PHONES', displayName: 'Phones', icon: 'smartphone' },
        agent: { id: shop.agent.id, name: shop.agent.name, phone: shop.agent.phone },
        commissionAmount: 100,
      });
      expect(response.body.data[0]).toMatchObject({ id: made.l2!.id, agent: null, commissionPercent: 2.5, commissionAmount: 20 });
    });

    it('rounds the commission amount to the cent, half up', async () => {
      const response = await api.get('/api/commissions/listings?status=SOLD', { token: shop.admin.token });
      expect(ids(response.body)).toEqual([made.p2!.id]);
      expect(response.body.data[0]).toMatchObject({ price: 500.5, commissionPercent: 5, commissionAmount: 25.03 });
    });

    it('filters listings with a commission set or unset', async () => {
      const set = await api.get('/api/commissions/listings?commissionFilter=set', { token: shop.admin.token });
      expect(ids(set.body)).toEqual(newestFirst().filter((id) => id !== made.p3!.id));
      expect(set.body.pagination.total).toBe(5);
      const unset = await api.get('/api/commissions/listings?commissionFilter=unset', { token: shop.admin.token });
      expect(ids(unset.body)).toEqual([made.p3!.id]);
      expect(unset.body.data[0]).toMatchObject({ commissionPercent: null, commissionAmount: null });
      const all = await api.get('/api/commissions/listings?commissionFilter=all', { token: shop.admin.token });
      expect(ids(all.body)).toEqual(newestFirst());
    });

    it('combines the status filter with the commission filter', async () => {
      const response = await api.get('/api/commissions/listings?status=PENDING&commissionFilter=set', { token: shop.admin.token });
      expect(ids(response.body)).toEqual([made.l2!.id]);
      expect(response.body.pagination).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1, totalExact: true });
    });

    it('pages with page and limit', async () => {
      const response = await api.get('/api/commissions/listings?limit=4&page=2', { token: shop.admin.token });
      expect(ids(response.body)).toEqual(newestFirst().slice(4));
      expect(response.body.pagination).toEqual({ page: 2, limit: 4, total: 6, totalPages: 2, totalExact: true });
    });

    it('rejects an unknown commissionFilter, status or a limit under 1', async () => {
      const cases = [
        ['commissionFilter=some', 'commissionFilter', 'must be one of set, unset, all'],
        ['status=GONE', 'status', 'must be one of AVAILABLE, PENDING, SOLD, ARCHIVED'],
        ['limit=0', 'limit', 'must be at least 1'],
        ['page=0', 'page', 'must be at least 1'],
      ];
      for (const [query, field, message] of cases) {
        const response = await api.get(`/api/commissions/listings?${query}`, { token: shop.admin.token });
        expect(response.status).toBe(400);
        expect(response.body.details[0]).toMatchObject({ field, message });
      }
    });
  });
});

describe('PATCH /api/commissions/listing/:id', () => {
  let category: Awaited<ReturnType<typeof buildCategory>>;

  beforeAll(async () => {
    category = await buildCategory(server.db, { name: 'PATCHED', displayName: 'Patched', icon: 'tablet' });
  });

  describe('happy', () => {
    it('sets the percent and answers the listing with its commission amount', async () => {
      const listing = await buildListing(server.db, { categoryId: category.id, agentId: shop.agent.id, price: 999.99 });
      const response = await api.patch(`/api/commissions/listing/${listing.id}`, { token: shop.admin.token, json: { commissionPercent: 12.5 } });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        id: listing.id,
        price: 999.99,
        commissionPercent: 12.5,
        commissionAmount: 125,
        category: { id: category.id, name: 'PATCHED', displayName: 'Patched', icon: 'tablet' },
        agent: { id: shop.agent.id, name: shop.agent.name, phone: shop.agent.phone },
      });
      const stored = await storedPercent(listing.id);
      expect(stored.commissionPercent).toBe(12.5);
      expect(stored.updatedAt.getTime()).toBeGreaterThanOrEqual(listing.updatedAt.getTime());
    });

    it('clears the percent with null', async () => {
      const listing = await buildListing(server.db, { categoryId: category.id, commissionPercent: 8 });
      const response = await api.patch(`/api/commissions/listing/${listing.id}`, { token: shop.admin.token, json: { commissionPercent: null } });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ id: listing.id, commissionPercent: null, commissionAmount: null });
      expect((await storedPercent(listing.id)).commissionPercent).toBeNull();
    });

    it('accepts the bounds 0 and 100', async () => {
      const listing = await buildListing(server.db, { categoryId: category.id, price: 40 });
      for (const percent of [0, 100]) {
        const response = await api.patch(`/api/commissions/listing/${listing.id}`, { token: shop.admin.token, json: { commissionPercent: percent } });
        expect(response.status).toBe(200);
        expect(response.body.data).toMatchObject({ commissionPercent: percent, commissionAmount: (40 * percent) / 100 });
        expect((await storedPercent(listing.id)).commissionPercent).toBe(percent);
      }
    });

    it('is reflected in the summary', async () => {
      const before = (await api.get('/api/commissions/summary', { token: shop.admin.token })).body.data;
      const listing = await buildListing(server.db, { categoryId: category.id, price: 200, status: 'SOLD' });
      await api.patch(`/api/commissions/listing/${listing.id}`, { token: shop.admin.token, json: { commissionPercent: 10 } });
      const after = (await api.get('/api/commissions/summary', { token: shop.admin.token })).body.data;
      expect(after.totalListings).toBe(before.totalListings + 1);
      expect(after.collectedCommission).toBeCloseTo(before.collectedCommission + 20, 2);
    });
  });

  describe('error', () => {
    let listing: Awaited<ReturnType<typeof buildListing>>;

    beforeAll(async () => {
      listing = await buildListing(server.db, { categoryId: category.id, commissionPercent: 3 });
    });

    const PERCENT_MESSAGE = 'must be a number from 0 to 100 with at most 2 decimals, or null';

    it('rejects a percent outside 0..100, with more than 2 decimals or not a number, and keeps the stored one', async () => {
      for (const commissionPercent of [-1, 100.01, 12.345, '10', true]) {
        const response = await api.patch(`/api/commissions/listing/${listing.id}`, { token: shop.admin.token, json: { commissionPercent } });
        expect(response.status).toBe(400);
        expect(response.body.details).toEqual([{ field: 'commissionPercent', message: PERCENT_MESSAGE, received: commissionPercent }]);
      }
      expect((await storedPercent(listing.id)).commissionPercent).toBe(3);
    });

    it('rejects a body without commissionPercent', async () => {
      const response = await api.patch(`/api/commissions/listing/${listing.id}`, { token: shop.admin.token, json: {} });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ field: 'commissionPercent', message: 'is required' }]);
    });

    it('answers 404 for an unknown listing', async () => {
      const response = await api.patch(`/api/commissions/listing/${MISSING_ID}`, { token: shop.admin.token, json: { commissionPercent: 5 } });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: `Listing with id "${MISSING_ID}" not found` });
    });

    it('answers 400 for an id that is not a UUID', async () => {
      const response = await api.patch('/api/commissions/listing/42', { token: shop.admin.token, json: { commissionPercent: 5 } });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ field: 'id', message: 'must be a valid UUID', received: '42' }]);
    });
  });
});

describe('security: administrators only', () => {
  let listing: Awaited<ReturnType<typeof buildListing>>;
  let expired: string;
  let deletedAdminToken: string;

  beforeAll(async () => {
    listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, commissionPercent: 4 });
    expired = await expiredToken(shop.admin);
    const gone = await buildAdmin(server.db);
    deletedAdminToken = gone.token;
    await server.db.delete(users).where(eq(users.id, gone.id));
  });

  const requests = [
    { name: 'GET asset-stats', send: (headers: Record<string, string>) => api.get('/api/commissions/asset-stats', { headers }) },
    { name: 'GET summary', send: (headers: Record<string, string>) => api.get('/api/commissions/summary', { headers }) },
    { name: 'GET listings', send: (headers: Record<string, string>) => api.get('/api/commissions/listings', { headers }) },
    {
      name: 'PATCH listing',
      send: (headers: Record<string, string>) => api.patch(`/api/commissions/listing/${listing.id}`, { headers, json: { commissionPercent: 50 } }),
    },
  ];

  const callers = (): Array<{ caller: string; headers: Record<string, string>; status: number; error: string }> => [
    { caller: 'no token', headers: {}, status: 401, error: 'Missing or malformed Authorization header' },
    { caller: 'a malformed token', headers: { authorization: 'Bearer not.a.jwt' }, status: 401, error: 'Invalid token' },
    { caller: 'an expired token', headers: { authorization: `Bearer ${expired}` }, status: 401, error: 'Token has expired' },
    { caller: "a deleted user's token", headers: { authorization: `Bearer ${deletedAdminToken}` }, status: 401, error: 'User no longer exists' },
    { caller: "an agent's token", headers: { authorization: `Bearer ${shop.agent.token}` }, status: 403, error: 'Role "AGENT" is not authorized for this resource' },
  ];

  for (const request of requests) {
    it(`${request.name} refuses every caller but an administrator`, async () => {
      for (const { caller, headers, status, error } of callers()) {
        const response = await request.send(headers);
        expect(response.status, caller).toBe(status);
        expect(response.body, caller).toEqual({ success: false, code: status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN', error });
      }
      expect((await storedPercent(listing.id)).commissionPercent).toBe(4);
    });
  }
});
