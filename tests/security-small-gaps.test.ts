import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { listings } from '../lib/db/schema.js';
import { captureLog } from './support/capture-log.js';
import { buildCategory, buildListing } from './support/catalog-factories.js';
import { buildAdmin, buildAgent } from './support/factories.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;

describe('settings links', () => {
  it.each(['socialUrl1', 'socialUrl2', 'shopGoogleMapUrl'])('refuses a %s that is not an http(s) URL, changing nothing', async (key) => {
    const admin = await buildAdmin(server.db);
    for (const value of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'not a url']) {
      const response = await api.put('/api/settings', { token: admin.token, json: { [key]: value } });
      expect(response.status).toBe(400);
      expect(response.body.details).toContainEqual(expect.objectContaining({ field: key, message: 'must be an http(s) URL or empty' }));
    }
    expect((await api.get('/api/settings')).body.data[key]).toBe('');
    const accepted = await api.put('/api/settings', { token: admin.token, json: { [key]: 'https://maps.example.com/shop' } });
    expect(accepted.status).toBe(200);
    expect((await api.put('/api/settings', { token: admin.token, json: { [key]: '' } })).status).toBe(200);
  });
});

describe('public detail', () => {
  it('counts a view for GET only: HEAD answers whether the listing is shown, and counts nothing', async () => {
    const category = await buildCategory(server.db);
    const listing = await buildListing(server.db, { categoryId: category.id });
    const head = await api.send('HEAD', `/api/public/listings/${listing.id}`);
    expect(head.status).toBe(200);
    expect((await api.send('HEAD', '/api/public/listings/5b0e5b38-5f6b-4f55-9c55-2d0b7c4e2a11')).status).toBe(404);
    const [stored] = await server.db.select({ viewsCount: listings.viewsCount }).from(listings).where(eq(listings.id, listing.id));
    expect(stored!.viewsCount).toBe(0);
    await api.get(`/api/public/listings/${listing.id}`);
    const [after] = await server.db.select({ viewsCount: listings.viewsCount }).from(listings).where(eq(listings.id, listing.id));
    expect(after!.viewsCount).toBe(1);
  });
});

describe('error answers', () => {
  it('clip what they echo and list at most 50 details', async () => {
    const admin = await buildAdmin(server.db);
    const agent = await buildAgent(server.db);
    const category = await buildCategory(server.db);
    const attributes = { brand: 'Apple', model: 'X', storage: '64GB', ...Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`unknown${index}`, 'x'])) };
    const response = await api.post('/api/listings', { token: agent.token, json: { title: 'Many keys', price: 1, categoryId: category.id, attributes } });
    expect(response.status).toBe(422);
    expect(response.body.details).toHaveLength(50);
    const long = await api.put('/api/settings', { token: admin.token, json: { siteName: 7, location: 'x'.repeat(500_000) } });
    expect(long.status).toBe(400);
    expect(long.text.length).toBeLessThan(2000);
  });
});

describe('every answer', () => {
  it('carries nosniff, on success, error and unknown routes alike', async () => {
    for (const path of ['/api/health', '/api/listings', '/api/nope/at/all', '/api/public/listings']) {
      expect((await api.get(path)).headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it("carries the service's own request id; a caller's is logged beside it, never in its place", async () => {
    let id: string | null = null;
    const lines = await captureLog(async () => {
      id = (await api.get('/api/health', { headers: { 'x-request-id': 'caller-chosen-id-123' } })).headers.get('x-request-id');
    });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.find((line) => line.msg === 'request' && line.requestId === id)).toMatchObject({ clientRequestId: 'caller-chosen-id-123' });
  });
});

describe('passwords over 72 bytes', () => {
  it('are refused at sign-in and as the current password, never silently cut', async () => {
    const agent = await buildAgent(server.db, { password: 'a'.repeat(72) });
    const login = await api.post('/api/auth/login', { json: { email: agent.email, password: `${'a'.repeat(72)}extra` } });
    expect(login.status).toBe(400);
    expect(login.body.details).toContainEqual(expect.objectContaining({ field: 'password', message: 'must be at most 72 bytes' }));
    const change = await api.put('/api/auth/me', { token: agent.token, json: { email: 'x@example.com', currentPassword: `${'a'.repeat(72)}extra` } });
    expect(change.status).toBe(400);
  });
});
