import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agentCodes, idempotencyKeys, rateLimits, users } from '../lib/db/schema.js';
import { buildAgent } from './support/factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';
import { expectTooMany } from './support/refusals.js';
import { keyedDigest } from './support/server-keys.js';

const server = useTestServer({ TRUST_PROXY: '1' });
const api = server.api;
const shop = useShop(server);
const SHOP_WIDE_MISSES = 'agent-code-misses:all';
let sequence = 0;

function signUpBody(agentCode: string, email = `signed-up-${(sequence += 1)}@example.com`) {
  return { email, password: 'a-strong-password', name: 'Signed Up', phone: '+15550123', agentCode };
}

function register(body: unknown, address: string, headers: Record<string, string> = {}) {
  return api.post('/api/auth/register', { json: body, headers: { 'x-forwarded-for': address, ...headers } });
}

function verify(code: string, address: string) {
  return api.post('/api/auth/verify-agent-code', { json: { code }, headers: { 'x-forwarded-for': address } });
}

async function issueCode(): Promise<{ id: string; code: string }> {
  const response = await api.post('/api/auth/agent-codes', { token: shop.admin.token, json: { name: 'Invited Agent' } });
  expect(response.status).toBe(201);
  return response.body.data;
}

/** A six-digit code no usable agent code has. */
async function wrongCode(): Promise<string> {
  await server.db.delete(agentCodes).where(eq(agentCodes.code, '000000'));
  return '000000';
}

async function counter(key: string): Promise<number> {
  const [row] = await server.db.select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.key, key));
  return row?.count ?? 0;
}

async function useCountOf(id: string): Promise<number> {
  const [row] = await server.db.select({ useCount: agentCodes.useCount }).from(agentCodes).where(eq(agentCodes.id, id));
  return row!.useCount;
}

async function userByEmail(email: string) {
  const [row] = await server.db.select().from(users).where(eq(users.email, email));
  return row;
}

async function keysOf(address: string) {
  return server.db
    .select({ key: idempotencyKeys.key, status: idempotencyKeys.status, body: idempotencyKeys.body })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, `address:${address}`), eq(idempotencyKeys.route, 'POST /api/auth/register')));
}

describe('checks of agent codes per address', () => {
  it('lets one address check 20 codes in all, sign-ups and verifications together, then refuses both with 429 before using a code', async () => {
    const address = '198.51.100.101';
    const wrong = await wrongCode();
    for (let check = 0; check < 10; check += 1) {
      expect((await verify(wrong, address)).body).toEqual({ success: true, data: { valid: false, agentName: null, agentPhone: null } });
      expect((await register(signUpBody(wrong), address)).status).toBe(400);
    }
    const { id, code } = await issueCode();
    const body = signUpBody(code);
    expectTooMany(await verify(code, address));
    expectTooMany(await register(body, address));
    expect(await counter(`agent-code-checks:${address}`)).toBe(22);
    expect(await useCountOf(id)).toBe(0);
    expect(await userByEmail(body.email)).toBeUndefined();
    expect((await register(body, '198.51.100.102')).status).toBe(201);
  });

  it('counts a sign-up that names a right code with a taken e-mail against its address, without using the code up', async () => {
    const address = '198.51.100.103';
    const agent = await buildAgent(server.db);
    const { id, code } = await issueCode();
    const misses = await counter(SHOP_WIDE_MISSES);
    const taken = await register(signUpBody(code, agent.email), address);
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ success: false, code: 'ALREADY_EXISTS', error: 'A record with that value already exists', details: [{ field: 'email', message: 'email already exists' }] });
    expect(await counter(`agent-code-checks:${address}`)).toBe(1);
    expect(await counter(SHOP_WIDE_MISSES)).toBe(misses);
    expect(await useCountOf(id)).toBe(0);
    expect((await register(signUpBody(await wrongCode()), address)).status).toBe(400);
    expect(await counter(`agent-code-checks:${address}`)).toBe(2);
    expect(await counter(SHOP_WIDE_MISSES)).toBe(misses + 1);
  });
});

describe('the shop-wide ceiling on wrong codes', () => {
  it('refuses wrong codes with 429 once 300 were tried in 15 minutes, while a valid code is still verified and signs up', async () => {
    const wrong = await wrongCode();
    const left = 300 - (await counter(SHOP_WIDE_MISSES));
    const answers = await Promise.all(
      Array.from({ length: Math.ceil(left / 20) }, async (_, address) => {
        const statuses = [];
        for (let check = 0; check < Math.min(20, left - address * 20); check += 1) statuses.push((await verify(wrong, `203.0.113.${address + 1}`)).status);
        return statuses;
      }),
    );
    expect(answers.flat()).toEqual(Array(left).fill(200));
    expectTooMany(await verify(wrong, '192.0.2.200'));
    expectTooMany(await register(signUpBody(wrong), '192.0.2.200'));

    const { id, code } = await issueCode();
    expect((await verify(code, '192.0.2.201')).body).toEqual({ success: true, data: { valid: true, agentName: 'Invited Agent', agentPhone: '' } });
    const body = signUpBody(code);
    const signedUp = await register(body, '192.0.2.202');
    expect(signedUp.status).toBe(201);
    expect((await userByEmail(body.email))?.role).toBe('AGENT');
    expect(await useCountOf(id)).toBe(1);
    expect(await counter(SHOP_WIDE_MISSES)).toBe(302);
  });
});

describe('Idempotency-Key on sign-ups', () => {
  it('keeps keys only for sign-ups within the address budget: refused ones leave none, and their retry later runs anew', async () => {
    const address = '198.51.100.120';
    const { code } = await issueCode();
    const bodies = Array.from({ length: 25 }, () => signUpBody(code, shop.admin.email));
    const statuses = [];
    for (const [index, body] of bodies.entries()) statuses.push((await register(body, address, { 'idempotency-key': `flood-${index}` })).status);
    expect(statuses).toEqual([...Array(20).fill(409), ...Array(5).fill(429)]);
    const kept = await keysOf(address);
    expect(kept).toHaveLength(20);
    expect(new Set(kept.map((row) => row.status))).toEqual(new Set([409]));
    expect(kept.map((row) => row.key)).not.toContain('flood-20');

    await server.db.update(rateLimits).set({ resetAt: sql`now() - interval '1 second'` }).where(eq(rateLimits.key, `agent-code-checks:${address}`));
    const retried = await register(bodies[20], address, { 'idempotency-key': 'flood-20' });
    expect(retried.status).toBe(409);
    expect(retried.body).toEqual({ success: false, code: 'ALREADY_EXISTS', error: 'A record with that value already exists', details: [{ field: 'email', message: 'email already exists' }] });
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await keysOf(address)).toHaveLength(21);
  });

  it("keeps a sign-up's answer without its token, and answers a replay with a freshly issued token that works", async () => {
    const address = '198.51.100.121';
    const { code } = await issueCode();
    const body = signUpBody(code);
    const first = await register(body, address, { 'idempotency-key': 'sign-up-once' });
    expect(first.status).toBe(201);
    const { token } = first.body.data;

    const [kept] = await keysOf(address);
    expect(kept).toEqual({ key: 'sign-up-once', status: 201, body: { success: true, data: { user: first.body.data.user } } });
    expect(JSON.stringify(kept)).not.toContain(token);

    const replayed = await register(body, address, { 'idempotency-key': 'sign-up-once' });
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual({ success: true, data: { user: first.body.data.user, token: expect.any(String) } });
    const me = await api.get('/api/auth/me', { token: replayed.body.data.token });
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(body.email);
    expect(await server.db.select().from(users).where(eq(users.email, body.email))).toHaveLength(1);
    expect(JSON.stringify(await keysOf(address))).not.toContain(replayed.body.data.token);
  });

  it("keeps a keyed fingerprint that holds nothing of the sign-up's password, and refuses a replay with another password", async () => {
    const [first, second] = ['198.51.100.123', '198.51.100.124'];
    const issued = await api.post('/api/auth/agent-codes', { token: shop.admin.token, json: { name: 'Invited Twice', maxUses: 2 } });
    const body = signUpBody(issued.body.data.code);
    expect((await register(body, first, { 'idempotency-key': 'sign-up-password' })).status).toBe(201);

    const otherPassword = await register({ ...body, password: 'another-strong-password' }, first, { 'idempotency-key': 'sign-up-password' });
    expect(otherPassword.status).toBe(422);
    expect(otherPassword.body).toEqual({ success: false, code: 'IDEMPOTENCY_KEY_REUSED', error: 'Idempotency-Key reused with a different request' });

    // From another address (another key scope), the same sign-up with another password is a 409 kept under the same fingerprint.
    expect((await register({ ...body, password: 'yet-another-password' }, second, { 'idempotency-key': 'sign-up-password' })).status).toBe(409);
    const fingerprints = await server.db
      .select({ fingerprint: idempotencyKeys.fingerprint })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, 'sign-up-password'));
    const { password: _password, ...withoutPassword } = body;
    const expected = keyedDigest('idempotency fingerprints', JSON.stringify({ query: '', body: withoutPassword, files: [] }));
    expect(fingerprints).toEqual([{ fingerprint: expected }, { fingerprint: expected }]);
  });

  it('refuses to replay a sign-up whose account has since changed its password, issuing no token', async () => {
    const address = '198.51.100.122';
    const { code } = await issueCode();
    const body = signUpBody(code);
    expect((await register(body, address, { 'idempotency-key': 'sign-up-then-reset' })).status).toBe(201);
    await server.db.update(users).set({ tokensValidAfter: sql`date_trunc('second', now())` }).where(eq(users.email, body.email));

    const replayed = await register(body, address, { 'idempotency-key': 'sign-up-then-reset' });
    expect(replayed.status).toBe(409);
    expect(replayed.body).toEqual({ success: false, code: 'CONFLICT', error: 'The account this sign-up made has changed since: sign in instead' });
  });
});
