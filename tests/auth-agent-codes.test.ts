import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agentCodes } from '../lib/db/schema.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer({ TRUST_PROXY: '1' });
const api = server.api;
const shop = useShop(server);
let address = 0;

// Code checks are limited per client address: a trusted proxy gives each check its own.

async function createCode(body: Record<string, unknown> = {}) {
  const response = await api.post('/api/auth/agent-codes', { token: shop.admin.token, json: { name: 'Jane Agent', ...body } });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; code: string; agentName: string; agentPhone: string; maxUses: number; expiresAt: string };
}

async function codeRow(id: string) {
  const [row] = await server.db.select().from(agentCodes).where(eq(agentCodes.id, id));
  return row!;
}

function verify(code: unknown) {
  address += 1;
  return api.post('/api/auth/verify-agent-code', { json: { code }, headers: { 'x-forwarded-for': `198.51.100.${address % 250}` } });
}

function hoursFromNow(iso: string): number {
  return (new Date(iso).getTime() - Date.now()) / 3_600_000;
}

describe('POST /api/auth/agent-codes', () => {
  it('issues a 6-digit code for one use and 24 hours by default', async () => {
    const response = await api.post('/api/auth/agent-codes', { token: shop.admin.token, json: { name: '  Jane Agent ' } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      data: { id: expect.any(String), code: expect.stringMatching(/^\d{6}$/), agentName: 'Jane Agent', agentPhone: '', maxUses: 1, expiresAt: expect.any(String) },
    });
    expect(hoursFromNow(response.body.data.expiresAt)).toBeGreaterThan(23.9);
    expect(hoursFromNow(response.body.data.expiresAt)).toBeLessThanOrEqual(24);
    expect(await codeRow(response.body.data.id)).toMatchObject({
      code: response.body.data.code,
      createdById: shop.admin.id,
      agentName: 'Jane Agent',
      role: 'AGENT',
      maxUses: 1,
      useCount: 0,
      isUsed: false,
      revokedAt: null,
      usedById: null,
    });
  });

  it('takes the phone, role AGENT, use count and lifetime given', async () => {
    const data = await createCode({ name: 'Sam', phone: '+15550111', role: 'AGENT', maxUses: 100, expiresInHours: 720 });
    expect(data).toMatchObject({ agentName: 'Sam', agentPhone: '+15550111', maxUses: 100 });
    expect(hoursFromNow(data.expiresAt)).toBeGreaterThan(719.9);
    expect(await codeRow(data.id)).toMatchObject({ agentPhone: '+15550111', maxUses: 100 });
  });

  it('gives every code its own value', async () => {
    const codes = await Promise.all(Array.from({ length: 15 }, () => createCode()));
    expect(new Set(codes.map((code) => code.code)).size).toBe(15);
  });

  it.each([
    ['no name', { name: undefined }, 'name', 'is required'],
    ['a role other than AGENT', { role: 'SUPER_ADMIN' }, 'role', 'must be AGENT'],
    ['maxUses of 0', { maxUses: 0 }, 'maxUses', 'must be at least 1'],
    ['maxUses over 100', { maxUses: 101 }, 'maxUses', 'must be at most 100'],
    ['a fractional maxUses', { maxUses: 1.5 }, 'maxUses', 'must be a whole number'],
    ['maxUses as text', { maxUses: '3' }, 'maxUses', 'must be a number'],
    ['a lifetime of 0 hours', { expiresInHours: 0 }, 'expiresInHours', 'must be at least 1'],
    ['a lifetime over 720 hours', { expiresInHours: 721 }, 'expiresInHours', 'must be at most 720'],
  ])('refuses %s with 400 naming the field and stores nothing', async (_label, overrides, field, message) => {
    const name = `Refused ${crypto.randomUUID()}`;
    const body = JSON.parse(JSON.stringify({ name, ...overrides }));
    const response = await api.post('/api/auth/agent-codes', { token: shop.admin.token, json: body });
    expect(response.status).toBe(400);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field, message }));
    expect(await server.db.select().from(agentCodes).where(eq(agentCodes.agentName, name))).toHaveLength(0);
  });
});

describe('GET /api/auth/agent-codes', () => {
  it('lists codes newest first with their state, paginated', async () => {
    await server.db.delete(agentCodes);
    const usable = await createCode({ name: 'Usable', maxUses: 2 });
    const expired = await createCode({ name: 'Expired' });
    await server.db.update(agentCodes).set({ expiresAt: sql`now() - interval '1 minute'` }).where(eq(agentCodes.id, expired.id));
    const revoked = await createCode({ name: 'Revoked' });
    await api.delete(`/api/auth/agent-codes/${revoked.id}`, { token: shop.admin.token });
    const usedUp = await createCode({ name: 'Used up' });
    await server.db.update(agentCodes).set({ useCount: 1, isUsed: true }).where(eq(agentCodes.id, usedUp.id));

    const response = await api.get('/api/auth/agent-codes', { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body.pagination).toEqual({ page: 1, limit: 20, total: 4, totalPages: 1, totalExact: true });
    const byName = Object.fromEntries(response.body.data.map((item: { agentName: string }) => [item.agentName, item]));
    expect(response.body.data.map((item: { agentName: string }) => item.agentName)).toEqual(['Used up', 'Revoked', 'Expired', 'Usable']);
    expect(byName.Usable).toMatchObject({ id: usable.id, code: usable.code, maxUses: 2, useCount: 0, isUsed: false, revoked: false, expired: false, usable: true });
    expect(byName.Expired).toMatchObject({ revoked: false, expired: true, usable: false });
    expect(byName.Revoked).toMatchObject({ revoked: true, revokedAt: expect.any(String), expired: false, usable: false });
    expect(byName['Used up']).toMatchObject({ useCount: 1, isUsed: true, revoked: false, expired: false, usable: false });

    const second = await api.get('/api/auth/agent-codes?page=2&limit=3', { token: shop.admin.token });
    expect(second.body.pagination).toEqual({ page: 2, limit: 3, total: 4, totalPages: 2, totalExact: true });
    expect(second.body.data.map((item: { agentName: string }) => item.agentName)).toEqual(['Usable']);
  });

  it('takes a limit over 100 as 100, saying so in pagination', async () => {
    const response = await api.get('/api/auth/agent-codes?limit=300', { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body.pagination.limit).toBe(100);
  });
});

describe('DELETE /api/auth/agent-codes/:id', () => {
  it('revokes a code at once', async () => {
    const { id, code } = await createCode({ maxUses: 10 });
    const response = await api.delete(`/api/auth/agent-codes/${id}`, { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { id } });
    expect((await codeRow(id)).revokedAt).toBeInstanceOf(Date);
    expect((await verify(code)).body.data).toEqual({ valid: false, agentName: null, agentPhone: null });
  });

  it('keeps the first revocation time when revoked again', async () => {
    const { id } = await createCode();
    await api.delete(`/api/auth/agent-codes/${id}`, { token: shop.admin.token });
    const first = (await codeRow(id)).revokedAt;
    const again = await api.delete(`/api/auth/agent-codes/${id}`, { token: shop.admin.token });
    expect(again.status).toBe(200);
    expect((await codeRow(id)).revokedAt).toEqual(first);
  });

  it('answers 404 for an unknown code and 400 for an id that is not a UUID', async () => {
    const unknown = crypto.randomUUID();
    const missing = await api.delete(`/api/auth/agent-codes/${unknown}`, { token: shop.admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, code: 'NOT_FOUND', error: `Agent code with id "${unknown}" not found` });
    const malformed = await api.delete('/api/auth/agent-codes/123', { token: shop.admin.token });
    expect(malformed.status).toBe(400);
    expect(malformed.body.details).toContainEqual(expect.objectContaining({ field: 'id', message: 'must be a valid UUID' }));
  });
});

describe('POST /api/auth/verify-agent-code', () => {
  it('answers valid with the name and phone that pre-fill the sign-up', async () => {
    const { code } = await createCode({ name: 'Prefill Name', phone: '+15550142' });
    const response = await verify(code);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { valid: true, agentName: 'Prefill Name', agentPhone: '+15550142' } });
  });

  it('does not use the code up', async () => {
    const { id, code } = await createCode();
    await verify(code);
    expect((await verify(code)).body.data.valid).toBe(true);
    expect(await codeRow(id)).toMatchObject({ useCount: 0, isUsed: false });
  });

  it.each([
    ['unknown', async () => {
      await server.db.delete(agentCodes).where(eq(agentCodes.code, '424242'));
      return '424242';
    }],
    ['expired', async () => {
      const { id, code } = await createCode();
      await server.db.update(agentCodes).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(agentCodes.id, id));
      return code;
    }],
    ['used up', async () => {
      const { id, code } = await createCode({ maxUses: 2 });
      await server.db.update(agentCodes).set({ useCount: 2, isUsed: true }).where(eq(agentCodes.id, id));
      return code;
    }],
  ])('answers valid:false without name or phone for an %s code', async (_label, prepare) => {
    const response = await verify(await prepare());
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { valid: false, agentName: null, agentPhone: null } });
  });

  it.each([['12345'], ['abcdef'], [123456]])('refuses the malformed code %j with 400', async (code) => {
    const response = await verify(code);
    expect(response.status).toBe(400);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field: 'code' }));
  });
});
