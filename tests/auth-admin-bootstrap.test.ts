import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ensureConfiguredAdmin } from '../lib/auth/bootstrap-admin.js';
import { passwordMatches } from '../lib/auth/passwords.js';
import { users } from '../lib/db/schema.js';
import { buildAgent } from './support/factories.js';
import { useTestServer } from './support/test-server.js';

const ADMIN_EMAIL = 'configured.admin@example.com';
const ADMIN_PASSWORD = 'configured-admin-password';

const server = useTestServer({ ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_NAME: 'Configured Admin' });
const api = server.api;

async function accountsWith(email: string) {
  return server.db.select().from(users).where(eq(users.email, email));
}

describe('administrator bootstrap (ADMIN_EMAIL)', () => {
  it('creates the configured administrator on the first request of a cold instance', async () => {
    expect((await api.get('/api/health')).status).toBe(200);
    const [admin] = await accountsWith(ADMIN_EMAIL);
    expect(admin).toMatchObject({ role: 'SUPER_ADMIN', name: 'Configured Admin' });
    const login = await api.post('/api/auth/login', { json: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    expect(login.status).toBe(200);
  });

  it('never promotes an agent who took the configured address after the administrator moved away from it', async () => {
    const login = await api.post('/api/auth/login', { json: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    const adminToken = login.body.data.token as string;
    const moved = await api.put('/api/auth/me', {
      token: adminToken,
      json: { email: 'moved.admin@example.com', currentPassword: ADMIN_PASSWORD },
    });
    expect(moved.status).toBe(200);

    const agent = await buildAgent(server.db);
    const taken = await api.put('/api/auth/me', { token: agent.token, json: { email: ADMIN_EMAIL, currentPassword: agent.password } });
    expect(taken.status).toBe(200);

    // What the next cold start of any function runs.
    await ensureConfiguredAdmin();

    const [account] = await accountsWith(ADMIN_EMAIL);
    expect(account).toMatchObject({ id: agent.id, role: 'AGENT', name: agent.name });
    expect(await passwordMatches(agent.password, account!.password)).toBe(true);
    const agentLogin = await api.post('/api/auth/login', { json: { email: ADMIN_EMAIL, password: agent.password } });
    expect(agentLogin.body.data.user.role).toBe('AGENT');
    expect((await api.get('/api/auth/agents', { token: agentLogin.body.data.token })).status).toBe(403);
    expect((await api.get('/api/auth/agents', { token: agent.token })).status).toBe(403);
  });

  it('leaves an existing account with the configured address untouched, whatever its password', async () => {
    await server.db.delete(users).where(eq(users.email, ADMIN_EMAIL));
    const agent = await buildAgent(server.db, { email: ADMIN_EMAIL, password: 'the-agents-own-password' });
    await ensureConfiguredAdmin();
    const accounts = await accountsWith(ADMIN_EMAIL);
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ id: agent.id, role: 'AGENT' });
    expect(await passwordMatches('the-agents-own-password', accounts[0]!.password)).toBe(true);
    expect((await api.post('/api/auth/login', { json: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } })).status).toBe(401);
  });
});
