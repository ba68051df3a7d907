import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { buildAgent, plantResetCode, type TestUser } from './support/factories.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;

/** A token signed with the server's secret, with the given claims of time (seconds since the epoch). */
function tokenFor(user: TestUser, times: { iat?: number; exp?: number }): Promise<string> {
  let jwt = new SignJWT({ email: user.email, role: user.role }).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id);
  if (times.iat !== undefined) jwt = jwt.setIssuedAt(times.iat);
  if (times.exp !== undefined) jwt = jwt.setExpirationTime(times.exp);
  return jwt.sign(new TextEncoder().encode(process.env.JWT_SECRET));
}

const now = () => Math.floor(Date.now() / 1000);

describe('a password reset ends the sessions issued before it', () => {
  it('refuses a token from before the reset, while a sign-in after it works', async () => {
    const agent = await buildAgent(server.db);
    const stolen = await tokenFor(agent, { iat: now() - 60, exp: now() + 3600 });
    expect((await api.get('/api/auth/me', { token: stolen })).status).toBe(200);

    await plantResetCode(server.db, agent.id, '123456');
    const reset = await api.post('/api/auth/reset-password', { json: { email: agent.email, token: '123456', newPassword: 'a-brand-new-password' } });
    expect(reset.status).toBe(200);

    const refused = await api.get('/api/auth/me', { token: stolen });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Token has been revoked' });
    const login = await api.post('/api/auth/login', { json: { email: agent.email, password: 'a-brand-new-password' } });
    expect(login.status).toBe(200);
    expect((await api.get('/api/auth/me', { token: login.body.data.token })).status).toBe(200);
  });
});

describe('tokens must say when they were issued and when they end', () => {
  it.each([
    ['without exp', { iat: now() }],
    ['without iat', { exp: now() + 3600 }],
  ])('refuses a correctly signed token %s', async (_label, times) => {
    const agent = await buildAgent(server.db);
    const response = await api.get('/api/auth/me', { token: await tokenFor(agent, times) });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Invalid token' });
  });
});
