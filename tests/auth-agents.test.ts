import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { listings, notifications, users } from '../lib/db/schema.js';
import { buildCategory, buildListing } from './support/catalog-factories.js';
import { buildAdmin, buildAgent } from './support/factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
const shop = useShop(server);

const PROFILE_KEYS = [
  'id', 'email', 'name', 'phone', 'role', 'profileImage',
  'social_1', 'social_2', 'social_3', 'social_4', 'social_5', 'social_6', 'social_7', 'social_8',
  'website', 'customSocials', 'createdAt', 'updatedAt', 'listingCount',
];

describe('GET /api/auth/agents', () => {
  it('lists only agents, newest first, with their listing counts and never a secret', async () => {
    await server.db.delete(users).where(eq(users.role, 'AGENT'));
    const category = await buildCategory(server.db);
    const older = await buildAgent(server.db, { name: 'Older Agent' });
    await server.db.update(users).set({ createdAt: sql`now() - interval '1 day'` }).where(eq(users.id, older.id));
    const newer = await buildAgent(server.db, { name: 'Newer Agent' });
    await buildAdmin(server.db);
    for (let i = 0; i < 3; i += 1) await buildListing(server.db, { categoryId: category.id, agentId: newer.id });
    await buildListing(server.db, { categoryId: category.id, agentId: older.id });
    await buildListing(server.db, { categoryId: category.id, agentId: null });
    await server.db
      .update(users)
      .set({ passwordResetToken: 'a'.repeat(64), passwordResetExpires: sql`now() + interval '15 minutes'` })
      .where(eq(users.id, newer.id));

    const response = await api.get('/api/auth/agents', { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1, totalExact: true });
    expect(response.body.data.map((agent: { id: string }) => agent.id)).toEqual([newer.id, older.id]);
    expect(response.body.data[0]).toMatchObject({ name: 'Newer Agent', email: newer.email, role: 'AGENT', listingCount: 3, customSocials: [] });
    expect(response.body.data[1]).toMatchObject({ name: 'Older Agent', listingCount: 1 });
    for (const agent of response.body.data) expect(Object.keys(agent).sort()).toEqual([...PROFILE_KEYS].sort());
    const hashes = await server.db.select({ password: users.password }).from(users);
    for (const { password } of hashes) expect(response.text).not.toContain(password);
    expect(response.text).not.toContain('a'.repeat(64));
  });

  it("answers an agent's profile image as an absolute URL on API_BASE_URL, and an image host's URL as it is", async () => {
    const local = await buildAgent(server.db);
    const hosted = await buildAgent(server.db);
    const hostedImage = 'https://res.cloudinary.com/shop/image/upload/v1/brostechnology/listings/agent.webp';
    await server.db.update(users).set({ profileImage: '/uploads/agent-face.webp' }).where(eq(users.id, local.id));
    await server.db.update(users).set({ profileImage: hostedImage }).where(eq(users.id, hosted.id));

    const response = await api.get('/api/auth/agents?limit=100', { token: shop.admin.token });
    expect(response.status).toBe(200);
    const imageOf = (id: string) => response.body.data.find((agent: { id: string }) => agent.id === id).profileImage;
    expect(imageOf(local.id)).toBe(`${server.baseUrl}/uploads/agent-face.webp`);
    expect(imageOf(hosted.id)).toBe(hostedImage);
    const [row] = await server.db.select({ profileImage: users.profileImage }).from(users).where(eq(users.id, local.id));
    expect(row!.profileImage).toBe('/uploads/agent-face.webp');
  });

  it('pages with page and limit', async () => {
    await server.db.delete(users).where(eq(users.role, 'AGENT'));
    for (let i = 0; i < 5; i += 1) await buildAgent(server.db);
    const response = await api.get('/api/auth/agents?page=3&limit=2', { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body.pagination).toEqual({ page: 3, limit: 2, total: 5, totalPages: 3, totalExact: true });
    expect(response.body.data).toHaveLength(1);
  });

  it('refuses a page that is not a positive whole number', async () => {
    const response = await api.get('/api/auth/agents?page=0', { token: shop.admin.token });
    expect(response.status).toBe(400);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field: 'page', message: 'must be at least 1' }));
  });
});

describe('DELETE /api/auth/agents/:id', () => {
  it('removes the agent: listings stay without an agent, notifications go, the token stops working', async () => {
    const agent = await buildAgent(server.db);
    const category = await buildCategory(server.db);
    const listing = await buildListing(server.db, { categoryId: category.id, agentId: agent.id });
    await server.db.insert(notifications).values({ userId: agent.id, title: 'Listed', type: 'LISTING_CREATED', data: { listingId: listing.id } });

    const response = await api.delete(`/api/auth/agents/${agent.id}`, { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { id: agent.id } });
    expect(await server.db.select().from(users).where(eq(users.id, agent.id))).toHaveLength(0);
    const [kept] = await server.db.select().from(listings).where(eq(listings.id, listing.id));
    expect(kept).toMatchObject({ id: listing.id, agentId: null });
    expect(await server.db.select().from(notifications).where(eq(notifications.userId, agent.id))).toHaveLength(0);
    const me = await api.get('/api/auth/me', { token: agent.token });
    expect(me.status).toBe(401);
    expect(me.body.error).toBe('User no longer exists');
  });

  it('answers 404 for an administrator\'s id and keeps the administrator', async () => {
    const other = await buildAdmin(server.db);
    const response = await api.delete(`/api/auth/agents/${other.id}`, { token: shop.admin.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: `Agent with id "${other.id}" not found` });
    expect(await server.db.select().from(users).where(eq(users.id, other.id))).toHaveLength(1);
  });

  it('answers 404 for an unknown id and 400 for one that is not a UUID', async () => {
    const unknown = crypto.randomUUID();
    const missing = await api.delete(`/api/auth/agents/${unknown}`, { token: shop.admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(`Agent with id "${unknown}" not found`);
    const malformed = await api.delete('/api/auth/agents/not-a-uuid', { token: shop.admin.token });
    expect(malformed.status).toBe(400);
    expect(malformed.body.details).toEqual([{ field: 'id', message: 'must be a valid UUID', received: 'not-a-uuid' }]);
  });
});
