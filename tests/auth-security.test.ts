import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { SignJWT, UnsecuredJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../lib/auth/tokens.js';
import { agentCodes, users } from '../lib/db/schema.js';
import { buildAdmin, buildAgent, expiredToken, type TestUser } from './support/factories.js';
import type { RequestOptions } from './support/http.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
let admin: TestUser;
let agent: TestUser;
const forged: Record<string, string> = {};

const SECRET = () => new TextEncoder().encode(process.env.JWT_SECRET);

function claimsOf(user: TestUser) {
  return { email: user.email, role: user.role };
}

beforeAll(async () => {
  admin = await buildAdmin(server.db);
  agent = await buildAgent(server.db);
  const doomed = await buildAgent(server.db);
  await server.db.delete(users).where(eq(users.id, doomed.id));
  forged.expired = await expiredToken(admin);
  forged.otherSecret = await new SignJWT(claimsOf(admin))
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(admin.id)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('another-secret-of-reasonable-length-0123456789'));
  forged.algNone = new UnsecuredJWT(claimsOf(admin)).setSubject(admin.id).setIssuedAt().setExpirationTime('1h').encode();
  forged.hs512 = await new SignJWT(claimsOf(admin)).setProtectedHeader({ alg: 'HS512' }).setSubject(admin.id).setIssuedAt().setExpirationTime('1h').sign(SECRET());
  forged.notUuidSubject = await new SignJWT(claimsOf(admin)).setProtectedHeader({ alg: 'HS256' }).setSubject('admin').setIssuedAt().setExpirationTime('1h').sign(SECRET());
  forged.tampered = (() => {
    const [header, , signature] = admin.token.split('.');
    const payload = Buffer.from(JSON.stringify({ sub: agent.id, ...claimsOf(agent), role: 'SUPER_ADMIN' })).toString('base64url');
    return `${header}.${payload}.${signature}`;
  })();
  forged.deletedUser = doomed.token;
});

interface ProtectedRoute {
  method: string;
  path: () => string;
  access: 'token' | 'admin';
  options?: RequestOptions;
}

const ROUTES: ProtectedRoute[] = [
  { method: 'GET', path: () => '/api/auth/me', access: 'token' },
  { method: 'PUT', path: () => '/api/auth/me', access: 'token', options: { json: { name: 'Changed' } } },
  { method: 'GET', path: () => '/api/auth/agent-codes', access: 'admin' },
  { method: 'POST', path: () => '/api/auth/agent-codes', access: 'admin', options: { json: { name: 'Sneaky' } } },
  { method: 'DELETE', path: () => `/api/auth/agent-codes/${crypto.randomUUID()}`, access: 'admin' },
  { method: 'GET', path: () => '/api/auth/agents', access: 'admin' },
  { method: 'DELETE', path: () => `/api/auth/agents/${crypto.randomUUID()}`, access: 'admin' },
];

const REFUSALS: Array<[string, () => string | undefined, string]> = [
  ['no Authorization header', () => undefined, 'Missing or malformed Authorization header'],
  ['a bare "Bearer"', () => 'Bearer', 'Token is empty'],
  ['"Bearer" followed by spaces only', () => 'Bearer    ', 'Token is empty'],
  ['a Basic header', () => 'Basic xyz', 'Missing or malformed Authorization header'],
  ['a bearer value with a space in it', () => 'Bearer abc def', 'Missing or malformed Authorization header'],
  ['a garbage token', () => 'Bearer not.a.jwt', 'Invalid token'],
  ['an expired token', () => `Bearer ${forged.expired}`, 'Token has expired'],
  ['a token signed with another secret', () => `Bearer ${forged.otherSecret}`, 'Invalid token'],
  ['an unsigned token (alg none)', () => `Bearer ${forged.algNone}`, 'Invalid token'],
  ['a token signed with HS512', () => `Bearer ${forged.hs512}`, 'Invalid token'],
  ['a token whose subject is not a user id', () => `Bearer ${forged.notUuidSubject}`, 'Invalid token'],
  ['a token whose payload was altered', () => `Bearer ${forged.tampered}`, 'Invalid token'],
  ['a deleted user\'s token', () => `Bearer ${forged.deletedUser}`, 'User no longer exists'],
];

function call(route: ProtectedRoute, authorization: string | undefined) {
  const headers = { ...route.options?.headers, ...(authorization !== undefined ? { authorization } : {}) };
  return api.send(route.method, route.path(), { ...route.options, headers });
}

describe.each(ROUTES)('$method $access route $path', (route) => {
  it.each(REFUSALS)('refuses %s with 401', async (_label, header, error) => {
    const response = await call(route, header());
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error });
  });

  if (route.access === 'admin') {
    it('refuses an agent with 403', async () => {
      const response = await call(route, `Bearer ${agent.token}`);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Role "AGENT" is not authorized for this resource' });
    });
  }
});

describe('authorization effects', () => {
  it('takes the role from the database, not from the token\'s claims', async () => {
    const demoted = await buildAdmin(server.db);
    await server.db.update(users).set({ role: 'AGENT' }).where(eq(users.id, demoted.id));
    const response = await api.get('/api/auth/agents', { token: demoted.token });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Role "AGENT" is not authorized for this resource' });
    const promotedClaims = await signToken({ id: agent.id, email: agent.email, role: 'SUPER_ADMIN' });
    const promoted = await api.get('/api/auth/agent-codes', { token: promotedClaims });
    expect(promoted.status).toBe(403);
    expect(promoted.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Role "AGENT" is not authorized for this resource' });
  });

  it('leaves nothing changed when an agent tries the administrators\' writes', async () => {
    const victim = await buildAgent(server.db);
    const [code] = await server.db
      .insert(agentCodes)
      .values({ code: String(crypto.randomInt(0, 1_000_000)).padStart(6, '0'), createdById: admin.id, agentName: 'Kept', expiresAt: new Date(Date.now() + 3_600_000) })
      .returning();
    expect((await api.post('/api/auth/agent-codes', { token: agent.token, json: { name: 'By Agent' } })).status).toBe(403);
    expect((await api.delete(`/api/auth/agent-codes/${code!.id}`, { token: agent.token })).status).toBe(403);
    expect((await api.delete(`/api/auth/agents/${victim.id}`, { token: agent.token })).status).toBe(403);
    expect(await server.db.select().from(agentCodes).where(eq(agentCodes.agentName, 'By Agent'))).toHaveLength(0);
    expect((await server.db.select().from(agentCodes).where(eq(agentCodes.id, code!.id)))[0]!.revokedAt).toBeNull();
    expect(await server.db.select().from(users).where(eq(users.id, victim.id))).toHaveLength(1);
  });

  it('writes a profile only to the caller, whatever id the body names', async () => {
    const caller = await buildAgent(server.db);
    const other = await buildAgent(server.db);
    const response = await api.put('/api/auth/me', { token: caller.token, json: { id: other.id, name: 'Caller Renamed' } });
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe(caller.id);
    const [otherRow] = await server.db.select().from(users).where(eq(users.id, other.id));
    expect(otherRow!.name).toBe(other.name);
  });

  it('answers an administrator on every admin route', async () => {
    for (const route of ROUTES.filter((candidate) => candidate.access === 'admin' && candidate.method === 'GET')) {
      const response = await call(route, `Bearer ${admin.token}`);
      expect(response.status).toBe(200);
      expect(response.text).not.toMatch(/\$2[aby]\$\d\d\$/);
    }
  });
});
