import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { buildAdmin, buildAgent } from './support/factories.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer({ TRUST_PROXY: '1' });
const api = server.api;

// Sign-ins are limited per e-mail and client address: a trusted proxy lets a test change address.

function login(body: unknown, address = '198.51.100.1') {
  return api.post('/api/auth/login', { json: body, headers: { 'x-forwarded-for': address } });
}

describe('POST /api/auth/login: happy path', () => {
  it('answers the user and a 7-day token carrying sub, email and role', async () => {
    const agent = await buildAgent(server.db);
    const response = await login({ email: agent.email, password: agent.password });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: { user: { id: agent.id, email: agent.email, name: agent.name, role: 'AGENT' }, token: expect.any(String), deviceToken: expect.any(String) },
    });
    const claims = decodeJwt(response.body.data.token);
    expect(claims).toMatchObject({ sub: agent.id, email: agent.email, role: 'AGENT' });
    expect(claims.exp! - claims.iat!).toBe(7 * 24 * 60 * 60);
    expect(response.text).not.toContain(agent.password);
    expect(response.text).not.toMatch(/\$2[aby]\$/);
    const me = await api.get('/api/auth/me', { token: response.body.data.token });
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(agent.id);
  });

  it('signs an administrator in with the SUPER_ADMIN role', async () => {
    const admin = await buildAdmin(server.db);
    const response = await login({ email: admin.email, password: admin.password });
    expect(response.status).toBe(200);
    expect(response.body.data.user.role).toBe('SUPER_ADMIN');
    expect(decodeJwt(response.body.data.token).role).toBe('SUPER_ADMIN');
  });

  it('ignores the case and surrounding spaces of the e-mail', async () => {
    const agent = await buildAgent(server.db);
    const response = await login({ email: `  ${agent.email.toUpperCase()} `, password: agent.password });
    expect(response.status).toBe(200);
    expect(response.body.data.user.id).toBe(agent.id);
  });
});

describe('POST /api/auth/login: errors', () => {
  it('answers 401 Invalid email or password for a wrong password', async () => {
    const agent = await buildAgent(server.db);
    const response = await login({ email: agent.email, password: 'not-the-password' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'INVALID_CREDENTIALS', error: 'Invalid email or password' });
  });

  it('answers exactly the same for an unknown e-mail', async () => {
    const response = await login({ email: 'nobody-here@example.com', password: 'whatever-password' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'INVALID_CREDENTIALS', error: 'Invalid email or password' });
  });

  it('does not accept the password of another account', async () => {
    const first = await buildAgent(server.db, { password: 'first-password' });
    await buildAgent(server.db, { password: 'second-password' });
    const response = await login({ email: first.email, password: 'second-password' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'INVALID_CREDENTIALS', error: 'Invalid email or password' });
  });

  it.each([
    ['no e-mail', { password: 'x' }, 'email', 'is required'],
    ['no password', { email: 'a@example.com' }, 'password', 'is required'],
    ['an empty password', { email: 'a@example.com', password: '' }, 'password', 'must not be empty'],
    ['a numeric password', { email: 'a@example.com', password: 12345678 }, 'password', 'must be a string'],
  ])('refuses a body with %s with 400 naming the field', async (_label, body, field, message) => {
    const response = await login(body);
    expect(response.status).toBe(400);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field, message }));
  });

  it('refuses a body that is not JSON with 415', async () => {
    const response = await api.post('/api/auth/login', { raw: 'email=a@example.com', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(response.status).toBe(415);
    expect(response.body.success).toBe(false);
  });
});

describe('POST /api/auth/login: rate limit', () => {
  it('refuses the 11th attempt for one e-mail from one address within 15 minutes, even with the right password', async () => {
    const agent = await buildAgent(server.db);
    for (let i = 0; i < 10; i += 1) expect((await login({ email: agent.email, password: 'wrong-password' }, '192.0.2.10')).status).toBe(401);
    const refused = await login({ email: agent.email, password: agent.password }, '192.0.2.10');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, code: 'RATE_LIMITED', error: 'Too many requests, try again later' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
  });

  it('counts per e-mail and address: the same account from another address still signs in', async () => {
    const agent = await buildAgent(server.db);
    for (let i = 0; i < 11; i += 1) await login({ email: agent.email, password: 'wrong-password' }, '192.0.2.20');
    const held = await login({ email: agent.email, password: agent.password }, '192.0.2.20');
    expect(held.status).toBe(429);
    expect(held.body).toEqual({ success: false, code: 'RATE_LIMITED', error: 'Too many requests, try again later' });
    const elsewhere = await login({ email: agent.email, password: agent.password }, '192.0.2.21');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.data.user.id).toBe(agent.id);
    const other = await buildAgent(server.db);
    const otherAccount = await login({ email: other.email, password: other.password }, '192.0.2.20');
    expect(otherAccount.status).toBe(200);
    expect(otherAccount.body.data.user.id).toBe(other.id);
  });
});
