import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agentCodes, listings, notifications, users } from '../lib/db/schema.js';
import { buildListing } from './support/catalog-factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

/**
 * Concurrent requests over real HTTP against one listing, one code or one address: every counter
 * and limit must come out exact, which only holds when each change is one atomic statement (or a
 * transaction that locks what it reads).
 */
const server = useTestServer({ TRUST_PROXY: '1' });
const api = server.api;
const shop = useShop(server);
let sequence = 0;

// Sign-up limits count per client address: behind a trusted proxy each request names its own.

function next(): number {
  sequence += 1;
  return sequence;
}

function fromAddress(): Record<string, string> {
  const n = next();
  return { 'x-forwarded-for': `10.0.${Math.floor(n / 250)}.1, 203.0.113.${n % 250}` };
}

async function listingRow(id: string) {
  const [row] = await server.db.select().from(listings).where(eq(listings.id, id));
  return row!;
}

async function issueCode(maxUses: number): Promise<{ id: string; code: string }> {
  const response = await api.post('/api/auth/agent-codes', { token: shop.admin.token, json: { name: 'Invited Agent', phone: '+15550999', maxUses } });
  expect(response.status).toBe(201);
  return response.body.data;
}

function signUp(agentCode: string, email = `racer-${next()}@example.com`) {
  return api.post('/api/auth/register', {
    json: { email, password: 'a-strong-password', name: 'Racing Agent', phone: '+15550123', agentCode },
    headers: fromAddress(),
  });
}

function statusesOf(responses: Array<{ status: number }>): number[] {
  return responses.map((response) => response.status).sort((a, b) => a - b);
}

describe('selling one listing concurrently', () => {
  it('takes exactly one item per sale, refuses the sales past the stock, archives at zero, while readers see no negative stock', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, stockQuantity: 20 });
    const sales = Array.from({ length: 25 }, () => api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { status: 'SOLD' } }));
    const reads = Array.from({ length: 10 }, () => api.get(`/api/listings/${listing.id}`, { token: shop.admin.token }));
    const [sold, read] = await Promise.all([Promise.all(sales), Promise.all(reads)]);

    expect(statusesOf(sold)).toEqual([...Array(20).fill(200), ...Array(5).fill(409)]);
    const remaining = sold.filter((response) => response.status === 200).map((response) => response.body.data.stockQuantity as number).sort((a, b) => a - b);
    // Twenty sales each take one item (19..0); the five late ones find none left and change nothing.
    expect(remaining).toEqual(Array.from({ length: 20 }, (_, index) => index));
    for (const refused of sold.filter((response) => response.status === 409)) expect(refused.body).toEqual({ success: false, code: 'CONFLICT', error: 'No stock left to sell' });
    const soldNotices = await server.db
      .select({ total: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, shop.agent.id), eq(notifications.type, 'LISTING_SOLD'), sql`${notifications.data} ->> 'listingId' = ${listing.id}`));
    expect(soldNotices[0]!.total).toBe(20);
    for (const response of read) {
      expect(response.status).toBe(200);
      expect(response.body.data.stockQuantity).toBeGreaterThanOrEqual(0);
    }
    expect(await listingRow(listing.id)).toMatchObject({ stockQuantity: 0, status: 'ARCHIVED' });
  });
});

describe('counting views concurrently', () => {
  it('adds exactly 50 views for 25 public and 25 signed-in detail fetches at once', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id });
    const publicViews = Array.from({ length: 25 }, () => api.get(`/api/public/listings/${listing.id}`));
    const agentViews = Array.from({ length: 25 }, () => api.get(`/api/listings/${listing.id}`, { token: shop.agent.token }));
    const responses = await Promise.all([...publicViews, ...agentViews]);

    expect(statusesOf(responses)).toEqual(Array(50).fill(200));
    expect((await listingRow(listing.id)).viewsCount).toBe(50);
  });
});

describe('signing up concurrently', () => {
  it('lets exactly maxUses of 8 simultaneous sign-ups with one code through', async () => {
    const { id, code } = await issueCode(3);
    const emails = Array.from({ length: 8 }, () => `code-race-${next()}@example.com`);
    const responses = await Promise.all(emails.map((email) => signUp(code, email)));

    expect(statusesOf(responses)).toEqual([201, 201, 201, 400, 400, 400, 400, 400]);
    for (const refused of responses.filter((response) => response.status === 400)) {
      expect(refused.body).toEqual({ success: false, code: 'INVALID_AGENT_CODE', error: 'Invalid or expired agent code' });
    }
    expect(await server.db.select().from(agentCodes).where(eq(agentCodes.id, id))).toEqual([
      expect.objectContaining({ useCount: 3, isUsed: true }),
    ]);
    const [created] = await server.db.select({ total: count() }).from(users).where(inArray(users.email, emails));
    expect(created!.total).toBe(3);
  });

  it('creates one account for 6 simultaneous sign-ups with one e-mail, using the code once', async () => {
    const { id, code } = await issueCode(10);
    const email = `same-${next()}@example.com`;
    const responses = await Promise.all(Array.from({ length: 6 }, () => signUp(code, email)));

    expect(statusesOf(responses)).toEqual([201, 409, 409, 409, 409, 409]);
    for (const refused of responses.filter((response) => response.status === 409)) {
      expect(refused.body).toEqual({ success: false, code: 'ALREADY_EXISTS', error: 'A record with that value already exists', details: [{ field: 'email', message: 'email already exists' }] });
    }
    const accounts = await server.db.select({ id: users.id, role: users.role }).from(users).where(eq(users.email, email));
    expect(accounts).toEqual([{ id: responses.find((response) => response.status === 201)!.body.data.user.id, role: 'AGENT' }]);
    const [row] = await server.db.select().from(agentCodes).where(eq(agentCodes.id, id));
    expect(row).toMatchObject({ useCount: 1, isUsed: false });
  });
});

describe('inquiry clicks concurrently', () => {
  it('counts exactly the 30 inquiries the per-minute limit lets through out of 40 from one address', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id });
    const address = { 'x-forwarded-for': '198.51.100.77' };
    const responses = await Promise.all(
      Array.from({ length: 40 }, () => api.post(`/api/public/listings/${listing.id}/inquiry`, { json: { method: 'call' }, headers: address })),
    );

    expect(statusesOf(responses)).toEqual([...Array(30).fill(200), ...Array(10).fill(429)]);
    for (const limited of responses.filter((response) => response.status === 429)) {
      expect(limited.body).toEqual({ success: false, code: 'RATE_LIMITED', error: expect.any(String) });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await listingRow(listing.id)).inquiryClicks).toBe(30);
  });

  it('counts all 40 inquiries spread over addresses, none lost to a concurrent increment', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id });
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        api.post(`/api/public/listings/${listing.id}/inquiry`, { json: { method: 'chat' }, headers: { 'x-forwarded-for': `192.0.2.${index % 2}` } }),
      ),
    );

    expect(statusesOf(responses)).toEqual(Array(40).fill(200));
    expect((await listingRow(listing.id)).inquiryClicks).toBe(40);
  });
});
