import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agentCodes, users } from '../lib/db/schema.js';
import { buildAgent } from './support/factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer({ TRUST_PROXY: '1' });
const api = server.api;
const shop = useShop(server);
let sequence = 0;

// Sign-ups are limited per client address: a trusted proxy lets each test speak from its own.

function unique(): number {
  sequence += 1;
  return sequence;
}

function signUpBody(agentCode: string, overrides: Record<string, unknown> = {}) {
  const n = unique();
  return { email: `agent-${n}@example.com`, password: 'a-strong-password', name: `Agent ${n}`, phone: '+15550123', agentCode, ...overrides };
}

function register(body: unknown, address = `198.51.100.${unique() % 250}`) {
  return api.post('/api/auth/register', { json: body, headers: { 'x-forwarded-for': address } });
}

async function issueCode(body: Record<string, unknown> = {}): Promise<{ id: string; code: string }> {
  const response = await api.post('/api/auth/agent-codes', { token: shop.admin.token, json: { name: 'Invited Agent', phone: '+15550999', ...body } });
  expect(response.status).toBe(201);
  return response.body.data;
}

async function codeRow(id: string) {
  const [row] = await server.db.select().from(agentCodes).where(eq(agentCodes.id, id));
  return row!;
}

async function userByEmail(email: string) {
  const [row] = await server.db.select().from(users).where(eq(users.email, email));
  return row;
}

describe('POST /api/auth/register: happy path', () => {
  it('creates an AGENT, takes the code\'s use and answers the user with a working token', async () => {
    const { id, code } = await issueCode();
    const body = signUpBody(code);
    const response = await register(body);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      data: { user: { id: expect.any(String), email: body.email, name: body.name, role: 'AGENT' }, token: expect.any(String) },
    });
    const stored = await userByEmail(body.email);
    expect(stored).toMatchObject({ id: response.body.data.user.id, name: body.name, phone: body.phone, role: 'AGENT' });
    expect(stored!.password).toMatch(/^\$2[aby]\$/);
    expect(response.text).not.toContain(stored!.password);
    expect(response.text).not.toContain(body.password);
    expect(await codeRow(id)).toMatchObject({ useCount: 1, isUsed: true, usedById: stored!.id });
    const me = await api.get('/api/auth/me', { token: response.body.data.token });
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(body.email);
  });

  it('stores the e-mail lower-cased, so signing in ignores case', async () => {
    const { code } = await issueCode();
    const n = unique();
    const response = await register(signUpBody(code, { email: `  Mixed.Case-${n}@Example.COM ` }));
    expect(response.status).toBe(201);
    expect(response.body.data.user.email).toBe(`mixed.case-${n}@example.com`);
    expect(await userByEmail(`mixed.case-${n}@example.com`)).toBeDefined();
    const login = await api.post('/api/auth/login', { json: { email: `MIXED.CASE-${n}@example.com`, password: 'a-strong-password' } });
    expect(login.status).toBe(200);
  });

  it('ignores a role sent by an older client: the account is always an AGENT', async () => {
    const { code } = await issueCode();
    const body = signUpBody(code, { role: 'SUPER_ADMIN' });
    const response = await register(body);
    expect(response.status).toBe(201);
    expect(response.body.data.user.role).toBe('AGENT');
    expect((await userByEmail(body.email))!.role).toBe('AGENT');
  });

  it('keeps a code of several uses usable until its last use', async () => {
    const { id, code } = await issueCode({ maxUses: 2 });
    expect((await register(signUpBody(code))).status).toBe(201);
    expect(await codeRow(id)).toMatchObject({ useCount: 1, isUsed: false });
    expect((await register(signUpBody(code))).status).toBe(201);
    expect(await codeRow(id)).toMatchObject({ useCount: 2, isUsed: true });
    const third = signUpBody(code);
    const refused = await register(third);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ success: false, code: 'INVALID_AGENT_CODE', error: 'Invalid or expired agent code' });
    expect(await userByEmail(third.email)).toBeUndefined();
    expect((await codeRow(id)).useCount).toBe(2);
  });

  it('holds maxUses under concurrent sign-ups with one code', async () => {
    const { id, code } = await issueCode({ maxUses: 3 });
    const bodies = Array.from({ length: 8 }, () => signUpBody(code));
    const responses = await Promise.all(bodies.map((body) => register(body)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 201, 201, 400, 400, 400, 400, 400]);
    expect(await codeRow(id)).toMatchObject({ useCount: 3, isUsed: true });
    const created = await server.db.select({ id: users.id }).from(users).where(inArray(users.email, bodies.map((body) => body.email)));
    expect(created).toHaveLength(3);
  });
});

describe('POST /api/auth/register: errors', () => {
  it('refuses an unknown code and creates nobody', async () => {
    const body = signUpBody('999999');
    await server.db.delete(agentCodes).where(eq(agentCodes.code, '999999'));
    const response = await register(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, code: 'INVALID_AGENT_CODE', error: 'Invalid or expired agent code' });
    expect(await userByEmail(body.email)).toBeUndefined();
  });

  it('refuses an expired code', async () => {
    const { id, code } = await issueCode();
    await server.db.update(agentCodes).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(agentCodes.id, id));
    const body = signUpBody(code);
    const response = await register(body);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Invalid or expired agent code');
    expect(await userByEmail(body.email)).toBeUndefined();
    expect((await codeRow(id)).useCount).toBe(0);
  });

  it('refuses a revoked code', async () => {
    const { id, code } = await issueCode({ maxUses: 5 });
    expect((await api.delete(`/api/auth/agent-codes/${id}`, { token: shop.admin.token })).status).toBe(200);
    const body = signUpBody(code);
    const response = await register(body);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Invalid or expired agent code');
    expect(await userByEmail(body.email)).toBeUndefined();
  });

  it('answers 409 naming the email field for a taken e-mail (in any case) and leaves the code unused', async () => {
    const existing = await buildAgent(server.db);
    const { id, code } = await issueCode();
    const response = await register(signUpBody(code, { email: existing.email.toUpperCase() }));
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, code: 'ALREADY_EXISTS', error: 'A record with that value already exists', details: [{ field: 'email', message: 'email already exists' }] });
    expect(await codeRow(id)).toMatchObject({ useCount: 0, isUsed: false, usedById: null });
    expect(await server.db.select({ id: users.id }).from(users).where(eq(users.email, existing.email))).toHaveLength(1);
  });

  type Body = ReturnType<typeof signUpBody>;
  it.each<[string, (body: Body) => unknown, string, string]>([
    ['a missing e-mail', ({ email: _email, ...rest }) => rest, 'email', 'is required'],
    ['a malformed e-mail', (body) => ({ ...body, email: 'not-an-email' }), 'email', 'must be a valid e-mail address'],
    ['a password under 8 characters', (body) => ({ ...body, password: 'short' }), 'password', 'must be at least 8 characters'],
    ['a password over 72 bytes', (body) => ({ ...body, password: 'é'.repeat(37) }), 'password', 'must be at most 72 bytes'],
    ['an agent code that is not 6 digits', (body) => ({ ...body, agentCode: '12345a' }), 'agentCode', 'must be 6 digits'],
    ['an empty name', (body) => ({ ...body, name: '   ' }), 'name', 'must not be empty'],
    ['a phone that is not a string', (body) => ({ ...body, phone: 5550123 }), 'phone', 'must be a string'],
  ])('refuses %s with a 400 naming the field', async (_label, change, field, message) => {
    const body = signUpBody('123456');
    const response = await register(change(body));
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field, message }));
    expect(await userByEmail(body.email)).toBeUndefined();
  });

  it('refuses a malformed JSON body', async () => {
    const response = await api.post('/api/auth/register', { raw: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, code: 'MALFORMED_BODY', error: 'Malformed JSON body' });
  });
});

describe('POST /api/auth/register: rate limit', () => {
  it('refuses the 21st sign-up from one address within 15 minutes with 429', async () => {
    const address = '192.0.2.77';
    await server.db.delete(agentCodes).where(eq(agentCodes.code, '000000'));
    for (let i = 0; i < 20; i += 1) expect((await register(signUpBody('000000'), address)).status).toBe(400);
    const { code } = await issueCode();
    const body = signUpBody(code);
    const refused = await register(body, address);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, code: 'RATE_LIMITED', error: 'Too many requests, try again later' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await userByEmail(body.email)).toBeUndefined();
    expect((await register(body, '192.0.2.78')).status).toBe(201);
  });
});
