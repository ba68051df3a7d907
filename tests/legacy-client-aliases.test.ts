import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { passwordMatches } from '../lib/auth/passwords.js';
import { agentCodes, settings, syndicationConfigs, users } from '../lib/db/schema.js';
import { buildAgent, plantResetCode } from './support/factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

/**
 * The requests the original service's admin panel sends on its main screens with its own names
 * for the same things: each must succeed, and do what the spec's name does and nothing else.
 */
const server = useTestServer({ MESSENGER_BOT_TOKEN: '', MESSENGER_CHANNEL_ID: '' });
const api = server.api;
const shop = useShop(server);
const BOT_TOKEN = '123456:legacy-admin-panel-token';

describe("the original admin panel's names", () => {
  it('generates an agent code with role "agent", in any letter case', async () => {
    for (const role of ['agent', 'Agent', 'AGENT']) {
      const response = await api.post('/api/auth/agent-codes', { token: shop.admin.token, json: { name: 'Invited', role } });
      expect(response.status, role).toBe(201);
      const [stored] = await server.db.select({ role: agentCodes.role }).from(agentCodes).where(eq(agentCodes.id, response.body.data.id));
      expect(stored!.role).toBe('AGENT');
    }
    expect((await api.post('/api/auth/agent-codes', { token: shop.admin.token, json: { name: 'Invited', role: 'admin' } })).status).toBe(400);
  });

  it('saves the channel config as platform TELEGRAM into the one MESSENGER row, and reads it back under either name', async () => {
    const saved = await api.post('/api/syndication/config', { token: shop.admin.token, json: { platform: 'TELEGRAM', botToken: BOT_TOKEN, channelId: '@legacy', isActive: true } });
    expect(saved.status).toBe(201);
    expect(saved.body.data.platform).toBe('MESSENGER');
    const again = await api.post('/api/syndication/config', { token: shop.admin.token, json: { platform: 'telegram', channelId: '@legacy_two' } });
    expect(again.status).toBe(200);
    expect(await server.db.select().from(syndicationConfigs)).toMatchObject([{ platform: 'MESSENGER', channelId: '@legacy_two', botToken: BOT_TOKEN }]);
    const read = await api.get('/api/syndication/config/telegram', { token: shop.admin.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ platform: 'MESSENGER', channelId: '@legacy_two' });
  });

  it('resets a password sent as `password`, as `newPassword` does', async () => {
    const agent = await buildAgent(server.db);
    await plantResetCode(server.db, agent.id, '654321');
    const response = await api.post('/api/auth/reset-password', { json: { email: agent.email, token: '654321', password: 'the-legacy-new-password' } });
    expect(response.status).toBe(200);
    const [row] = await server.db.select().from(users).where(eq(users.id, agent.id));
    expect(await passwordMatches('the-legacy-new-password', row!.password)).toBe(true);
    const neither = await api.post('/api/auth/reset-password', { json: { email: agent.email, token: '654321' } });
    expect(neither.status).toBe(400);
    expect(neither.body.details).toContainEqual(expect.objectContaining({ field: 'newPassword', message: 'is required' }));
  });

  it('creates a category without an icon with the icon "tag", as the original did', async () => {
    const response = await api.post('/api/categories', { token: shop.admin.token, json: { name: 'LEGACY_ICONLESS', displayName: 'Iconless' } });
    expect(response.status).toBe(201);
    expect(response.body.data.icon).toBe('tag');
  });

  it("saves settings sent under the original's keys into the spec's, keeps its other keys unserved, and still refuses unknown ones", async () => {
    const response = await api.put('/api/settings', {
      token: shop.admin.token,
      json: {
        whatsappNumber: '+15550111',
        telegramHandle: '@legacy_shop',
        facebookUrl: 'https://facebook.com/legacy',
        instagramUrl: 'https://instagram.com/legacy',
        tiktokUrl: 'https://tiktok.com/@legacy',
        adminTelegramUsername: 'legacy_admin',
        siteName: 'Legacy Shop',
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      chatNumber: '+15550111',
      messengerHandle: '@legacy_shop',
      socialUrl1: 'https://facebook.com/legacy',
      socialUrl2: 'https://instagram.com/legacy',
      siteName: 'Legacy Shop',
    });
    expect(Object.keys(response.body.data)).toHaveLength(12);
    expect((await api.get('/api/settings')).body.data).not.toHaveProperty('tiktokUrl');
    expect(await server.db.select().from(settings).where(eq(settings.key, 'tiktokUrl'))).toMatchObject([{ value: 'https://tiktok.com/@legacy' }]);

    const both = await api.put('/api/settings', { token: shop.admin.token, json: { chatNumber: '+1999', whatsappNumber: '+1888' } });
    expect(both.body.data.chatNumber).toBe('+1999');
    const script = await api.put('/api/settings', { token: shop.admin.token, json: { facebookUrl: 'javascript:alert(1)' } });
    expect(script.status).toBe(400);
    expect(script.body.details).toContainEqual(expect.objectContaining({ field: 'facebookUrl' }));
    const unknown = await api.put('/api/settings', { token: shop.admin.token, json: { favouriteColour: 'blue' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toContainEqual(expect.objectContaining({ field: 'favouriteColour', message: 'is not a known setting' }));
  });

  it('serves the telegram paths as the messenger ones', async () => {
    await server.db.delete(syndicationConfigs);
    for (const [legacy, current, token] of [
      ['/api/public/telegram-bot', '/api/public/messenger-bot', undefined],
      ['/api/syndication/telegram/webhook-info', '/api/syndication/messenger/webhook-info', shop.admin.token],
      ['/api/syndication/telegram/info', '/api/syndication/messenger/info', shop.admin.token],
    ] as const) {
      const [old, now] = [await api.get(legacy, { token }), await api.get(current, { token })];
      // Same status and same message: the messenger function answered, not the unknown-route fallback.
      expect([old.status, old.body], legacy).toEqual([now.status, now.body]);
      expect(old.body.error, legacy).not.toBe('Route not found');
    }
  });
});
