import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { passwordMatches } from '../lib/auth/passwords.js';
import { agentCodes, syndicationConfigs, users } from '../lib/db/schema.js';
import { buildAdmin, buildAgent } from './support/factories.js';
import { useTestServer } from './support/test-server.js';

/**
 * The requests the original service's admin panel sends on its main screens with its own names
 * (D38): each must succeed, and do what the spec's name does and nothing else.
 */
const server = useTestServer({ MESSENGER_BOT_TOKEN: '', MESSENGER_CHANNEL_ID: '' });
const api = server.api;
const BOT_TOKEN = '123456:legacy-admin-panel-token';

describe("the original admin panel's names", () => {
  it('generates an agent code with role "agent", in any letter case', async () => {
    const admin = await buildAdmin(server.db);
    for (const role of ['agent', 'Agent', 'AGENT']) {
      const response = await api.post('/api/auth/agent-codes', { token: admin.token, json: { name: 'Invited', role } });
      expect(response.status, role).toBe(201);
      const [stored] = await server.db.select({ role: agentCodes.role }).from(agentCodes).where(eq(agentCodes.id, response.body.data.id));
      expect(stored!.role).toBe('AGENT');
    }
    expect((await api.post('/api/auth/agent-codes', { token: admin.token, json: { name: 'Invited', role: 'admin' } })).status).toBe(400);
  });

  it('saves the channel config as platform TELEGRAM into the one MESSENGER row, and reads it back under either name', async () => {
    const admin = await buildAdmin(server.db);
    const saved = await api.post('/api/syndication/config', { token: admin.token, json: { platform: 'TELEGRAM', botToken: BOT_TOKEN, channelId: '@legacy', isActive: true } });
    expect(saved.status).toBe(201);
    expect(saved.body.data.platform).toBe('MESSENGER');
    const again = await api.post('/api/syndication/config', { token: admin.token, json: { platform: 'telegram', channelId: '@legacy_two' } });
    expect(again.status).toBe(200);
    expect(await server.db.select().from(syndicationConfigs)).toMatchObject([{ platform: 'MESSENGER', channelId: '@legacy_two', botToken: BOT_TOKEN }]);
    const read = await api.get('/api/syndication/config/telegram', { token: admin.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ platform: 'MESSENGER', channelId: '@legacy_two' });
  });

  it('resets a password sent as `password`, as `newPassword` does', async () => {
    const agent = await buildAgent(server.db);
    await server.db
      .update(users)
      .set({ passwordResetToken: crypto.createHash('sha256').update('654321').digest('hex'), passwordResetExpires: sql`now() + interval '15 minutes'`, passwordResetAttempts: 0 })
      .where(eq(users.id, agent.id));
    const response = await api.post('/api/auth/reset-password', { json: { email: agent.email, token: '654321', password: 'the-legacy-new-password' } });
    expect(response.status).toBe(200);
    const [row] = await server.db.select().from(users).where(eq(users.id, agent.id));
    expect(await passwordMatches('the-legacy-new-password', row!.password)).toBe(true);
    const neither = await api.post('/api/auth/reset-password', { json: { email: agent.email, token: '654321' } });
    expect(neither.status).toBe(400);
    expect(neither.body.details).toContainEqual(expect.objectContaining({ field: 'newPassword', message: 'is required' }));
  });

  it('creates a category without an icon with the icon "tag", as the original did', async () => {
    const admin = await buildAdmin(server.db);
    const response = await api.post('/api/categories', { token: admin.token, json: { name: 'LEGACY_ICONLESS', displayName: 'Iconless' } });
    expect(response.status).toBe(201);
    expect(response.body.data.icon).toBe('tag');
  });
});
