import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cacheEntries, syndicationConfigs, syndicationLogs } from '../lib/db/schema.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { buildCategory, buildListing } from './support/catalog-factories.js';
import { expiredToken } from './support/factories.js';
import { apiClient } from './support/http.js';
import { startLoopbackBotApi, type LoopbackBotApi } from './support/loopback-bot-api.js';
import { emitListingEvent } from './support/listing-events.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const BOT_TOKEN = '800000001:AAConfigTestsBotToken_abcdefghijklmnop';
const OTHER_TOKEN = '800000002:AAConfigTestsOtherToken_qrstuvwxyz012';
const CHANNEL = '-1005550001111';

let bot: LoopbackBotApi;
const responseTexts: string[] = [];

beforeAll(async () => {
  bot = await startLoopbackBotApi({ token: BOT_TOKEN, bot: { id: 8000001, first_name: 'Deals Bot', username: 'deals_bot' } });
  bot.acceptToken(OTHER_TOKEN);
});
afterAll(() => bot.close());
// No environment defaults and no storefront: only stored configs exist here.
const server = useTestServer(() => ({ MESSENGER_API_ROOT: bot.apiRoot, MESSENGER_BOT_TOKEN: '', MESSENGER_CHANNEL_ID: '', STOREFRONT_URL: '' }));
const shop = useShop(server);
const api = apiClient(() => server.baseUrl, (response) => responseTexts.push(response.text));
beforeEach(async () => {
  bot.reset();
  await server.db.delete(syndicationConfigs);
  await server.db.delete(cacheEntries);
});

async function storeConfig(values: Partial<typeof syndicationConfigs.$inferInsert> = {}) {
  const [row] = await server.db
    .insert(syndicationConfigs)
    .values({ platform: 'MESSENGER', botToken: BOT_TOKEN, channelId: CHANNEL, ...values })
    .returning();
  return row!;
}

async function storedConfig(platform = 'MESSENGER') {
  const [row] = await server.db.select().from(syndicationConfigs).where(eq(syndicationConfigs.platform, platform));
  return row;
}

describe('GET /api/syndication/config', () => {
  it('lists nothing while nothing is configured', async () => {
    const response = await api.get('/api/syndication/config', { token: shop.agent.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: [] });
  });

  it('lists stored configs with every secret masked to its last 4 characters', async () => {
    const row = await storeConfig({ apiKey: 'key-1234567890wxyz', apiSecret: 'short', extraConfig: { region: 'eu' } });
    await storeConfig({ platform: 'AUX', botToken: null, channelId: '@auxchannel', isActive: false });
    const response = await api.get('/api/syndication/config', { token: shop.agent.token });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      expect.objectContaining({ platform: 'AUX', botToken: null, channelId: '@auxchannel', isActive: false }),
      {
        id: row.id,
        platform: 'MESSENGER',
        botToken: `••••••••${BOT_TOKEN.slice(-4)}`,
        channelId: CHANNEL,
        apiKey: '••••••••wxyz',
        apiSecret: '••••••••',
        isActive: true,
        extraConfig: { region: 'eu' },
        source: 'database',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    expect(response.text).not.toContain('key-1234567890');
    expect(response.text).not.toContain('short');
  });

  it('shows one config by platform, in any letter case', async () => {
    await storeConfig();
    const response = await api.get('/api/syndication/config/messenger', { token: shop.agent.token });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ platform: 'MESSENGER', botToken: `••••••••${BOT_TOKEN.slice(-4)}`, channelId: CHANNEL });
  });

  it('answers 404 for a platform without a config', async () => {
    const response = await api.get('/api/syndication/config/MESSENGER', { token: shop.agent.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Syndication config for platform "MESSENGER" not found' });
  });

  it('refuses a malformed platform', async () => {
    const response = await api.get('/api/syndication/config/no%20spaces', { token: shop.agent.token });
    expect(response.status).toBe(400);
    expect(response.body.details[0].field).toBe('platform');
  });

  it('refuses requests without a valid token', async () => {
    expect((await api.get('/api/syndication/config')).status).toBe(401);
    expect((await api.get('/api/syndication/config/MESSENGER', { token: await expiredToken(shop.agent) })).body.error).toBe('Token has expired');
  });
});

describe('POST /api/syndication/config', () => {
  it('creates a config, upper-casing the platform, and answers with the token masked', async () => {
    const response = await api.post('/api/syndication/config', {
      token: shop.admin.token,
      json: { platform: 'messenger', botToken: BOT_TOKEN, channelId: CHANNEL, isActive: true },
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ platform: 'MESSENGER', botToken: `••••••••${BOT_TOKEN.slice(-4)}`, channelId: CHANNEL, isActive: true, source: 'database' });
    expect(response.text).not.toContain(BOT_TOKEN);
    expect(await storedConfig()).toMatchObject({ platform: 'MESSENGER', botToken: BOT_TOKEN, channelId: CHANNEL, isActive: true });
  });

  it('updates the config of that platform, keeping the token when its masked value comes back', async () => {
    const row = await storeConfig();
    const response = await api.post('/api/syndication/config', {
      token: shop.admin.token,
      json: { platform: 'MESSENGER', botToken: `••••••••${BOT_TOKEN.slice(-4)}`, channelId: '@newchannel', isActive: false },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id: row.id, channelId: '@newchannel', isActive: false });
    expect(await storedConfig()).toMatchObject({ id: row.id, botToken: BOT_TOKEN, channelId: '@newchannel', isActive: false });
    expect(await server.db.select().from(syndicationConfigs)).toHaveLength(1);
  });

  it('replaces the token with a new full one and leaves unsent fields alone', async () => {
    await storeConfig({ isActive: false });
    const response = await api.post('/api/syndication/config', { token: shop.admin.token, json: { platform: 'MESSENGER', botToken: OTHER_TOKEN } });
    expect(response.status).toBe(200);
    expect(await storedConfig()).toMatchObject({ botToken: OTHER_TOKEN, channelId: CHANNEL, isActive: false });
  });

  it('refuses a masked value that is not the stored token', async () => {
    await storeConfig();
    const response = await api.post('/api/syndication/config', { token: shop.admin.token, json: { platform: 'MESSENGER', botToken: '••••••••abcd' } });
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([{ field: 'botToken', message: 'a masked value can only keep the stored secret; send the full value' }]);
    expect((await storedConfig())!.botToken).toBe(BOT_TOKEN);
  });

  it('requires a bot token and a channel id to create a config', async () => {
    const response = await api.post('/api/syndication/config', { token: shop.admin.token, json: { platform: 'MESSENGER', isActive: true } });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Missing required fields: botToken, channelId');
    expect(await storedConfig()).toBeUndefined();
  });

  it('refuses malformed fields with the field named', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ botToken: BOT_TOKEN, channelId: CHANNEL }, 'platform'],
      [{ platform: 'MESSENGER', botToken: 'abc/../../x', channelId: CHANNEL }, 'botToken'],
      [{ platform: 'MESSENGER', botToken: BOT_TOKEN, channelId: 'not a channel' }, 'channelId'],
      [{ platform: 'MESSENGER', botToken: BOT_TOKEN, channelId: CHANNEL, isActive: 'yes' }, 'isActive'],
    ];
    for (const [json, field] of cases) {
      const response = await api.post('/api/syndication/config', { token: shop.admin.token, json });
      expect(response.status).toBe(400);
      expect(response.body.details[0].field).toBe(field);
    }
    expect(await server.db.select().from(syndicationConfigs)).toEqual([]);
  });

  it('refuses an agent and stores nothing', async () => {
    const response = await api.post('/api/syndication/config', { token: shop.agent.token, json: { platform: 'MESSENGER', botToken: BOT_TOKEN, channelId: CHANNEL } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Role "AGENT" is not authorized for this resource' });
    expect(await storedConfig()).toBeUndefined();
  });
});

describe('DELETE /api/syndication/config/:platform', () => {
  it('deletes the config of a platform', async () => {
    await storeConfig();
    const response = await api.delete('/api/syndication/config/messenger', { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { platform: 'MESSENGER' } });
    expect(await storedConfig()).toBeUndefined();
  });

  it('answers 404 when the platform has no config', async () => {
    const response = await api.delete('/api/syndication/config/MESSENGER', { token: shop.admin.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Syndication config for platform "MESSENGER" not found' });
  });

  it('refuses an agent and keeps the config', async () => {
    await storeConfig();
    const response = await api.delete('/api/syndication/config/MESSENGER', { token: shop.agent.token });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Role "AGENT" is not authorized for this resource' });
    expect(await storedConfig()).toBeDefined();
  });
});

describe('GET /api/syndication/messenger/info', () => {
  it('shows the bot and the channel without photo URLs', async () => {
    await storeConfig();
    const response = await api.get('/api/syndication/messenger/info', { token: shop.agent.token });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      bot: { id: 8000001, first_name: 'Deals Bot', username: 'deals_bot', photoUrl: null },
      channel: { id: Number(CHANNEL), title: 'Shop Deals', username: 'shopdeals', memberCount: 1234, photoUrl: null },
    });
    expect(bot.calls.map((call) => call.method).sort()).toEqual(['getChat', 'getChatMemberCount', 'getMe']);
    expect(bot.callsTo('getChat')[0]!.chatId).toBe(CHANNEL);
    expect(response.text).not.toContain('AQAD');
  });

  it('still answers while posting is switched off', async () => {
    await storeConfig({ isActive: false });
    const response = await api.get('/api/syndication/messenger/info', { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ bot: { username: 'deals_bot' }, channel: { id: Number(CHANNEL), title: 'Shop Deals' } });
  });

  it('answers 502 with the Bot API error', async () => {
    await storeConfig();
    bot.fail('getChat', { error_code: 400, description: 'Bad Request: chat not found' });
    const response = await api.get('/api/syndication/messenger/info', { token: shop.admin.token });
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ success: false, code: 'UPSTREAM_FAILED', error: 'Bot API getChat failed (400): Bad Request: chat not found' });
  });

  it('answers 409 while no bot and channel are configured', async () => {
    const response = await api.get('/api/syndication/messenger/info', { token: shop.admin.token });
    expect(response.status).toBe(409);
    expect(response.body.error).toBe('The messenger channel is not configured: set a MESSENGER bot token and channel id');
    expect(bot.calls).toEqual([]);
  });

  it('refuses a request without a token', async () => {
    const response = await api.get('/api/syndication/messenger/info');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Missing or malformed Authorization header' });
    expect(bot.calls).toEqual([]);
  });
});

describe('GET /api/public/messenger-bot', () => {
  it('shows the bot with a link, and serves it from the cache for 10 minutes', async () => {
    await storeConfig();
    const first = await api.get('/api/public/messenger-bot');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, data: { id: 8000001, first_name: 'Deals Bot', username: 'deals_bot', link: 'https://t.me/deals_bot' } });
    const second = await api.get('/api/public/messenger-bot');
    expect(second.body).toEqual(first.body);
    expect(bot.callsTo('getMe')).toHaveLength(1);
    const [entry] = await server.db.select().from(cacheEntries);
    const ahead = entry!.expiresAt.getTime() - Date.now();
    expect(ahead).toBeGreaterThan(9 * 60_000);
    expect(ahead).toBeLessThanOrEqual(10 * 60_000);
    expect(JSON.stringify(entry)).not.toContain(BOT_TOKEN);
  });

  it('asks the Bot API again once the cached profile has expired', async () => {
    await storeConfig();
    await api.get('/api/public/messenger-bot');
    await server.db.update(cacheEntries).set({ expiresAt: new Date(Date.now() - 1000) });
    const response = await api.get('/api/public/messenger-bot');
    expect(response.status).toBe(200);
    expect(bot.callsTo('getMe')).toHaveLength(2);
  });

  it('never serves the previous bot after the token changes', async () => {
    await storeConfig();
    await api.get('/api/public/messenger-bot');
    await server.db.update(syndicationConfigs).set({ botToken: OTHER_TOKEN });
    await api.get('/api/public/messenger-bot');
    expect(bot.callsTo('getMe').map((call) => call.token)).toEqual([BOT_TOKEN, OTHER_TOKEN]);
  });

  it('answers 404 while no bot is configured', async () => {
    const response = await api.get('/api/public/messenger-bot');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Messenger bot is not configured' });
  });

  it('answers 502 when the Bot API refuses, caching nothing', async () => {
    await storeConfig();
    bot.fail('getMe', { error_code: 401, description: 'Unauthorized' });
    const response = await api.get('/api/public/messenger-bot');
    expect(response.status).toBe(502);
    expect(response.body.error).toBe('Bot API getMe failed (401): Unauthorized');
    expect(await server.db.select().from(cacheEntries)).toEqual([]);
  });
});

describe('messenger webhook', () => {
  it('points the webhook at this service with a secret token, and answers with the webhook info', async () => {
    await storeConfig();
    const response = await api.post('/api/syndication/messenger/setup-webhook', { token: shop.admin.token });
    expect(response.status).toBe(200);
    const url = `${server.baseUrl}/api/syndication/messenger/webhook`;
    expect(response.body.data).toMatchObject({ url, has_custom_certificate: false, pending_update_count: 0 });
    const [call] = bot.callsTo('setWebhook');
    expect(call!.params.url).toBe(url);
    expect(bot.webhook.secretToken).toMatch(/^[0-9a-f]{64}$/);
    expect(bot.webhook.secretToken).not.toContain(BOT_TOKEN.split(':')[1]);
  });

  it('shows the webhook info', async () => {
    await storeConfig();
    await api.post('/api/syndication/messenger/setup-webhook', { token: shop.admin.token });
    const response = await api.get('/api/syndication/messenger/webhook-info', { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      url: `${server.baseUrl}/api/syndication/messenger/webhook`,
      has_custom_certificate: false,
      pending_update_count: 0,
      ip_address: null,
      last_error_date: null,
      last_error_message: null,
      max_connections: 40,
      allowed_updates: null,
    });
  });

  it('answers 409 while no bot is configured', async () => {
    for (const response of [
      await api.post('/api/syndication/messenger/setup-webhook', { token: shop.admin.token }),
      await api.get('/api/syndication/messenger/webhook-info', { token: shop.admin.token }),
    ]) {
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ success: false, code: 'NOT_CONFIGURED', error: 'The messenger bot is not configured: set a MESSENGER bot token' });
    }
    expect(bot.calls).toEqual([]);
  });

  it('refuses an agent', async () => {
    await storeConfig();
    for (const response of [
      await api.post('/api/syndication/messenger/setup-webhook', { token: shop.agent.token }),
      await api.get('/api/syndication/messenger/webhook-info', { token: shop.agent.token }),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Role "AGENT" is not authorized for this resource' });
    }
    expect(bot.calls).toEqual([]);
  });

  it("acknowledges the Bot API's inbound update (it carries the registered secret) with 200 and does nothing, whatever the body", async () => {
    await storeConfig();
    await api.post('/api/syndication/messenger/setup-webhook', { token: shop.admin.token });
    const secret = { 'x-telegram-bot-api-secret-token': bot.webhook.secretToken! };
    bot.reset();
    const update = await api.post('/api/syndication/messenger/webhook', { json: { update_id: 1, channel_post: { message_id: 5, text: 'hi' } }, headers: secret });
    expect(update.status).toBe(200);
    expect(update.body).toEqual({ success: true });
    const junk = await api.post('/api/syndication/messenger/webhook', { raw: '{not json', headers: { 'content-type': 'application/json', ...secret } });
    expect(junk.status).toBe(200);
    expect(junk.body).toEqual({ success: true });
    expect(bot.calls).toEqual([]);
  });

  it('answers 401 to a webhook call without the registered secret, or with another', async () => {
    await storeConfig();
    await api.post('/api/syndication/messenger/setup-webhook', { token: shop.admin.token });
    const attempts: Array<Record<string, string>> = [{}, { 'x-telegram-bot-api-secret-token': 'not-the-secret' }, { 'x-telegram-bot-api-secret-token': `${bot.webhook.secretToken!}0` }];
    for (const headers of attempts) {
      const response = await api.post('/api/syndication/messenger/webhook', { json: { update_id: 2 }, headers });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Invalid webhook secret' });
    }
  });
});

describe('posting', () => {
  let categoryId: string;
  beforeAll(async () => {
    categoryId = (await buildCategory(server.db)).id;
  });

  it('posts nothing and logs nothing while no config exists', async () => {
    const listing = await buildListing(server.db, { categoryId, agentId: shop.agent.id });
    const response = await api.post(`/api/syndication/trigger/${listing.id}`, { token: shop.admin.token });
    expect(response.status).toBe(409);
    expect(response.body.error).toBe('Channel posting is not configured: no active MESSENGER config with a bot token and channel id');
    await emitListingEvent(server.db, { type: 'listing.created', listingId: listing.id });
    await settleDeferredWork();
    expect(await server.db.select().from(syndicationLogs).where(eq(syndicationLogs.listingId, listing.id))).toEqual([]);
    expect(bot.calls).toEqual([]);
  });

  it('sends a post without a keyboard when no button has a link source', async () => {
    await storeConfig();
    const listing = await buildListing(server.db, { categoryId, agentId: shop.agent.id });
    const response = await api.post(`/api/syndication/trigger/${listing.id}`, { token: shop.admin.token });
    expect(response.status).toBe(200);
    const [call] = bot.callsTo('sendMessage');
    expect(call!.replyMarkup).toBeUndefined();
    expect(call!.token).toBe(BOT_TOKEN);
  });
});

describe('an unreachable Bot API', () => {
  it('gives 502 envelopes and a FAILED entry, tried again on its own, that name the failure but never the token', async () => {
    await storeConfig();
    await bot.close();
    const info = await api.get('/api/syndication/messenger/info', { token: shop.admin.token });
    expect(info.status).toBe(502);
    expect(info.body.error).toMatch(/^Bot API (getMe|getChat|getChatMemberCount) could not be reached \(ECONNREFUSED\)$/);
    const listing = await buildListing(server.db, { categoryId: (await buildCategory(server.db)).id, agentId: shop.agent.id });
    const trigger = await api.post(`/api/syndication/trigger/${listing.id}`, { token: shop.admin.token });
    expect(trigger.status).toBe(502);
    expect(trigger.body.error).toBe('Posting to the channel failed: Bot API sendMessage could not be reached (ECONNREFUSED)');
    const [entry] = await server.db.select().from(syndicationLogs).where(eq(syndicationLogs.listingId, listing.id));
    // It never left, so it is tried again on its own.
    expect(entry).toMatchObject({ status: 'FAILED', errorMessage: 'Bot API sendMessage could not be reached (ECONNREFUSED)', retryAt: expect.any(Date) });
  });
});

describe('the bot token', () => {
  it('appears in no response', () => {
    expect(responseTexts.length).toBeGreaterThan(40);
    for (const text of responseTexts) {
      expect(text).not.toContain(BOT_TOKEN.split(':')[1]);
      expect(text).not.toContain(OTHER_TOKEN.split(':')[1]);
    }
  });
});
