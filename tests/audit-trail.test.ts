import { desc, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditEntries, listings } from '../lib/db/schema.js';
import { buildListing } from './support/catalog-factories.js';
import { captureLog } from './support/capture-log.js';
import { buildAgent } from './support/factories.js';
import type { ApiResponse } from './support/http.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';
import { expectAdministratorsOnly } from './support/refusals.js';

const CRON_SECRET = 'audit-trail-cron-secret';
const BOT_TOKEN = '777000111:AuditTrailSecretBotTokenValue';

const server = useTestServer({ CRON_SECRET, AUDIT_RETENTION_DAYS: '30' });
const api = server.api;
const shop = useShop(server);

const IPHONE = { brand: 'Apple', model: 'iPhone 15', storage: '128GB' };

beforeEach(async () => {
  await server.db.delete(auditEntries);
});

async function storedEntries() {
  return server.db.select().from(auditEntries).orderBy(desc(auditEntries.at));
}

/** The one entry a write left, read straight from the database. */
async function onlyEntry() {
  const rows = await storedEntries();
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe('audit entries of writes', () => {
  it('records a listing an agent creates, with the caller, request id, address and every field it set', async () => {
    const response = await api.post('/api/listings', {
      token: shop.agent.token,
      json: { title: 'iPhone 15', price: 800, categoryId: shop.category.id, attributes: IPHONE, stockQuantity: 2 },
    });
    expect(response.status).toBe(201);
    const entry = await onlyEntry();
    expect(entry).toMatchObject({
      actorId: shop.agent.id,
      actorRole: 'AGENT',
      actorEmail: shop.agent.email,
      action: 'create',
      entity: 'listing',
      entityId: response.body.data.id,
      requestId: response.headers.get('x-request-id'),
      ip: '127.0.0.1',
    });
    expect(entry.changes).toMatchObject({
      title: { before: null, after: 'iPhone 15' },
      price: { before: null, after: 800 },
      stockQuantity: { before: null, after: 2 },
      agentId: { before: null, after: shop.agent.id },
      attributes: { before: null, after: IPHONE },
    });
  });

  it('records only the fields an update changed, each before and after', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Old title', price: 500 });
    const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { title: 'New title', price: 450, description: listing.description } });
    expect(response.status).toBe(200);
    const entry = await onlyEntry();
    expect(entry).toMatchObject({ action: 'update', entity: 'listing', entityId: listing.id, actorId: shop.agent.id });
    expect(entry.changes).toEqual({ title: { before: 'Old title', after: 'New title' }, price: { before: 500, after: 450 } });
  });

  it('records a sale as `sell` with the stock it took, a move to the trash, and a delete for good with what the listing held', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, stockQuantity: 1, title: 'Last one' });
    expect((await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { status: 'SOLD' } })).status).toBe(200);
    expect((await onlyEntry()).changes).toEqual({ stockQuantity: { before: 1, after: 0 }, status: { before: 'AVAILABLE', after: 'ARCHIVED' } });
    await server.db.delete(auditEntries);
    expect((await api.delete(`/api/listings/${listing.id}`, { token: shop.admin.token })).status).toBe(200);
    const trashed = await onlyEntry();
    expect(trashed).toMatchObject({ action: 'trash', entityId: listing.id, actorId: shop.admin.id, changes: { deletedAt: { before: null, after: expect.any(String) } } });
    expect(Object.keys(trashed.changes)).toEqual(['deletedAt']);
    await server.db.delete(auditEntries);
    expect((await api.delete(`/api/listings/${listing.id}?permanent=true`, { token: shop.admin.token })).status).toBe(200);
    const entry = await onlyEntry();
    expect(entry).toMatchObject({ action: 'delete', entityId: listing.id, actorId: shop.admin.id, actorRole: 'SUPER_ADMIN' });
    expect(entry.changes).toMatchObject({ title: { before: 'Last one', after: null }, status: { before: 'ARCHIVED', after: null } });
  });

  it('records a commission change as an update of the listing', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, commissionPercent: null });
    expect((await api.patch(`/api/commissions/listing/${listing.id}`, { token: shop.admin.token, json: { commissionPercent: 7.5 } })).status).toBe(200);
    expect(await onlyEntry()).toMatchObject({ action: 'update', entity: 'listing', entityId: listing.id, changes: { commissionPercent: { before: null, after: 7.5 } } });
  });

  it('records category create, update and delete, and each category the default seeding creates', async () => {
    const createdCategory = await api.post('/api/categories', { token: shop.admin.token, json: { name: 'audit tablets', displayName: 'Tablets' } });
    expect(createdCategory.status).toBe(201);
    const id = createdCategory.body.data.id;
    expect((await api.patch(`/api/categories/${id}`, { token: shop.admin.token, json: { displayName: 'Tablets and pads' } })).status).toBe(200);
    expect((await api.delete(`/api/categories/${id}`, { token: shop.admin.token })).status).toBe(200);
    const rows = (await storedEntries()).filter((row) => row.entityId === id).reverse();
    expect(rows.map((row) => row.action)).toEqual(['create', 'update', 'delete']);
    expect(rows[0]!.changes).toMatchObject({ name: { before: null, after: 'AUDIT_TABLETS' }, displayName: { before: null, after: 'Tablets' } });
    expect(rows[1]!.changes).toEqual({ displayName: { before: 'Tablets', after: 'Tablets and pads' } });
    expect(rows[2]!.changes).toMatchObject({ name: { before: 'AUDIT_TABLETS', after: null } });

    await server.db.delete(auditEntries);
    const seeded = await api.get('/api/admin/seed-categories', { token: shop.admin.token });
    expect(seeded.status).toBe(200);
    const seedEntries = await storedEntries();
    expect(seedEntries.map((row) => row.action)).toEqual(seeded.body.data.created.map(() => 'seed'));
    expect(seedEntries.map((row) => (row.changes.name as { after: string }).after).sort()).toEqual([...seeded.body.data.created].sort());
    await server.db.delete(auditEntries);
    expect((await api.get('/api/admin/seed-categories', { token: shop.admin.token })).status).toBe(200);
    expect(await storedEntries()).toEqual([]);
  });

  it('records the settings keys a write changed, and nothing for a write that changed none', async () => {
    await api.put('/api/settings', { token: shop.admin.token, json: { siteName: 'Before' } });
    await server.db.delete(auditEntries);
    expect((await api.put('/api/settings', { token: shop.admin.token, json: { siteName: 'After', location: 'Bole' } })).status).toBe(200);
    expect(await onlyEntry()).toMatchObject({
      action: 'update',
      entity: 'settings',
      entityId: null,
      changes: { siteName: { before: 'Before', after: 'After' }, location: { before: '', after: 'Bole' } },
    });
    await server.db.delete(auditEntries);
    expect((await api.put('/api/settings', { token: shop.admin.token, json: { siteName: 'After' } })).status).toBe(200);
    expect(await storedEntries()).toEqual([]);
  });

  it('records an agent code created (its code masked) and revoked', async () => {
    const code = await api.post('/api/auth/agent-codes', { token: shop.admin.token, json: { name: 'New Agent', maxUses: 3 } });
    expect(code.status).toBe(201);
    expect((await api.delete(`/api/auth/agent-codes/${code.body.data.id}`, { token: shop.admin.token })).status).toBe(200);
    const [revoke, create] = await storedEntries();
    expect(create).toMatchObject({ action: 'create', entity: 'agent-code', entityId: code.body.data.id });
    expect(create!.changes).toMatchObject({ code: { before: null, after: '***' }, agentName: { before: null, after: 'New Agent' }, maxUses: { before: null, after: 3 } });
    expect(revoke).toMatchObject({ action: 'revoke', entity: 'agent-code', entityId: code.body.data.id, changes: { revokedAt: { before: null } } });
    expect(JSON.stringify([create, revoke])).not.toContain(code.body.data.code);
  });

  it('records an agent removed with the account as it was', async () => {
    const leaving = await buildAgent(server.db, { email: 'leaving@example.com', name: 'Leaving Agent' });
    expect((await api.delete(`/api/auth/agents/${leaving.id}`, { token: shop.admin.token })).status).toBe(200);
    expect(await onlyEntry()).toMatchObject({
      action: 'delete',
      entity: 'agent',
      entityId: leaving.id,
      changes: { email: { before: 'leaving@example.com', after: null }, name: { before: 'Leaving Agent', after: null }, role: { before: 'AGENT', after: null } },
    });
  });

  it('records a profile change of the caller as an update of the user', async () => {
    expect((await api.put('/api/auth/me', { token: shop.otherAgent.token, json: { phone: '+251911222333', website: 'https://agent.example' } })).status).toBe(200);
    expect(await onlyEntry()).toMatchObject({
      actorId: shop.otherAgent.id,
      action: 'update',
      entity: 'user',
      entityId: shop.otherAgent.id,
      changes: { phone: { after: '+251911222333' }, website: { before: null, after: 'https://agent.example' } },
    });
  });

  it('records the channel config created and changed by its platform, the bot token only as "***"', async () => {
    const createdConfig = await api.post('/api/syndication/config', { token: shop.admin.token, json: { platform: 'AUDITCHAT', botToken: BOT_TOKEN, channelId: '@auditchannel' } });
    expect(createdConfig.status).toBe(201);
    expect((await api.post('/api/syndication/config', { token: shop.admin.token, json: { platform: 'AUDITCHAT', isActive: false } })).status).toBe(200);
    expect((await api.delete('/api/syndication/config/AUDITCHAT', { token: shop.admin.token })).status).toBe(200);
    const [removed, changed, made] = await storedEntries();
    expect(made).toMatchObject({ action: 'create', entity: 'syndication-config', entityId: 'AUDITCHAT' });
    expect(made!.changes).toMatchObject({ botToken: { before: null, after: '***' }, channelId: { before: null, after: '@auditchannel' } });
    expect(changed!.changes).toEqual({ isActive: { before: true, after: false } });
    expect(removed!.changes).toMatchObject({ botToken: { before: '***', after: null } });
  });

  it('never holds a bot token, password, agent code or token, whatever the writes carried', async () => {
    const code = await api.post('/api/auth/agent-codes', { token: shop.admin.token, json: { name: 'Secret Keeper' } });
    await api.post('/api/syndication/config', { token: shop.admin.token, json: { platform: 'SECRETCHAT', botToken: BOT_TOKEN, channelId: '@secretchannel' } });
    await api.post('/api/syndication/config', { token: shop.admin.token, json: { platform: 'SECRETCHAT', botToken: `${BOT_TOKEN}Changed` } });
    await api.put('/api/auth/me', { token: shop.admin.token, json: { email: 'audit-admin-new@example.com', currentPassword: shop.admin.password } });
    await api.put('/api/auth/me', { token: shop.admin.token, json: { email: shop.admin.email, currentPassword: shop.admin.password } });
    const trail = JSON.stringify(await storedEntries());
    expect((await storedEntries()).length).toBeGreaterThanOrEqual(5);
    for (const secret of [BOT_TOKEN, code.body.data.code, shop.admin.password, shop.admin.token, shop.agent.token]) expect(trail).not.toContain(secret);
  });
});

describe('refused writes', () => {
  it('leave no entry: another agent\'s listing, an invalid body, a sale without stock, a category in use', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, stockQuantity: 0, status: 'PENDING' });
    expect((await api.patch(`/api/listings/${listing.id}`, { token: shop.otherAgent.token, json: { title: 'Mine now' } })).status).toBe(403);
    expect((await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { price: -5 } })).status).toBe(400);
    expect((await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { status: 'SOLD' } })).status).toBe(409);
    expect((await api.delete(`/api/categories/${shop.category.id}`, { token: shop.admin.token })).status).toBe(409);
    expect((await api.put('/api/settings', { token: shop.agent.token, json: { siteName: 'Agent shop' } })).status).toBe(403);
    expect(await storedEntries()).toEqual([]);
    const [unchanged] = await server.db.select().from(listings).where(eq(listings.id, listing.id));
    expect(unchanged).toMatchObject({ title: listing.title, status: 'PENDING', stockQuantity: 0 });
  });
});

describe('GET /api/admin/audit', () => {
  /** Entries at known times, written straight to the database. */
  async function seedTrail() {
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const listingId = '11111111-1111-4111-8111-111111111111';
    await server.db.insert(auditEntries).values([
      { at: at(50), actorId: shop.agent.id, actorRole: 'AGENT', actorEmail: shop.agent.email, action: 'create', entity: 'listing', entityId: listingId, changes: { title: { before: null, after: 'A' } }, requestId: 'r1', ip: '10.0.0.1' },
      { at: at(40), actorId: shop.agent.id, actorRole: 'AGENT', actorEmail: shop.agent.email, action: 'update', entity: 'listing', entityId: listingId, changes: { price: { before: 1, after: 2 } }, requestId: 'r2', ip: '10.0.0.1' },
      { at: at(30), actorId: shop.admin.id, actorRole: 'SUPER_ADMIN', actorEmail: shop.admin.email, action: 'update', entity: 'settings', entityId: null, changes: { siteName: { before: '', after: 'S' } }, requestId: 'r3', ip: '10.0.0.2' },
      { at: at(20), actorId: shop.admin.id, actorRole: 'SUPER_ADMIN', actorEmail: shop.admin.email, action: 'delete', entity: 'listing', entityId: listingId, changes: {}, requestId: 'r4', ip: '10.0.0.2' },
    ]);
    return { listingId, at };
  }

  it('answers the entries newest first in the documented shape, paginated', async () => {
    await seedTrail();
    const response = await api.get('/api/admin/audit?limit=3', { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body.pagination).toEqual({ page: 1, limit: 3, total: 4, totalPages: 2, totalExact: true });
    expect(response.body.data.map((entry: { requestId: string }) => entry.requestId)).toEqual(['r4', 'r3', 'r2']);
    expect(response.body.data[1]).toEqual({
      id: expect.any(String),
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      actor: { id: shop.admin.id, role: 'SUPER_ADMIN', email: shop.admin.email },
      action: 'update',
      entity: 'settings',
      entityId: null,
      changes: { siteName: { before: '', after: 'S' } },
      requestId: 'r3',
      ip: '10.0.0.2',
    });
    const second = await api.get('/api/admin/audit?limit=3&page=2', { token: shop.admin.token });
    expect(second.body.data.map((entry: { requestId: string }) => entry.requestId)).toEqual(['r1']);
  });

  it('filters by entity, entityId, actorId, action and a time window', async () => {
    const { listingId, at } = await seedTrail();
    const ids = async (query: string) =>
      (await api.get(`/api/admin/audit?${query}`, { token: shop.admin.token })).body.data.map((entry: { requestId: string }) => entry.requestId);
    expect(await ids('entity=settings')).toEqual(['r3']);
    expect(await ids(`entity=listing&entityId=${listingId}`)).toEqual(['r4', 'r2', 'r1']);
    expect(await ids(`actorId=${shop.agent.id}`)).toEqual(['r2', 'r1']);
    expect(await ids('action=update')).toEqual(['r3', 'r2']);
    expect(await ids(`from=${encodeURIComponent(at(45).toISOString())}&to=${encodeURIComponent(at(25).toISOString())}`)).toEqual(['r3', 'r2']);
    expect(await ids('entity=agent')).toEqual([]);
  });

  it('refuses bad filters with 400 and a detail for each', async () => {
    const response = await api.get('/api/admin/audit?entity=invoice&actorId=nope&from=yesterday&limit=0', { token: shop.admin.token });
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['actorId', 'entity', 'from', 'limit']);
    const backwards = await api.get('/api/admin/audit?from=2026-05-02&to=2026-05-01', { token: shop.admin.token });
    expect(backwards.status).toBe(400);
    expect(backwards.body.details).toEqual([{ field: 'to', message: 'must not be before from', received: 'object' }]);
  });

  it('is for administrators only: an agent is 403, no token 401', async () => {
    await expectAdministratorsOnly(api, '/api/admin/audit', shop.agent.token);
  });
});

describe('retention', () => {
  it('the sweeper removes entries older than AUDIT_RETENTION_DAYS and keeps the rest', async () => {
    const day = 24 * 60 * 60 * 1000;
    await server.db.insert(auditEntries).values([
      { at: new Date(Date.now() - 31 * day), action: 'update', entity: 'settings', requestId: 'old' },
      { at: new Date(Date.now() - 29 * day), action: 'update', entity: 'settings', requestId: 'kept' },
    ]);
    const swept = await api.get('/api/cron/sweep', { token: CRON_SECRET });
    expect(swept.status).toBe(200);
    expect(swept.body.data.auditEntriesRemoved).toBe(1);
    expect((await storedEntries()).map((row) => row.requestId)).toEqual(['kept']);
  });
});

describe('X-Request-Id', () => {
  it('is on every answer, the service\'s own even when the caller sends one, which is logged beside it', async () => {
    const callerId = 'caller-request-0001';
    const answers: ApiResponse[] = [];
    const lines = await captureLog(async () => {
      answers.push(await api.get('/api/health'), await api.get('/api/admin/audit', { headers: { 'x-request-id': callerId } }));
      answers.push(await api.get('/api/no-such-route'), await api.post('/api/settings'));
    });
    for (const response of answers) expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const ownId = answers[1]!.headers.get('x-request-id');
    expect(lines).toContainEqual(expect.objectContaining({ requestId: ownId, clientRequestId: callerId, path: '/api/admin/audit', status: 401 }));
  });
});
