import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listings, notifications, settings, syndicationConfigs, syndicationLogs, users } from '../lib/db/schema.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { buildListing } from './support/catalog-factories.js';
import { buildAgent, expiredToken } from './support/factories.js';
import { apiClient } from './support/http.js';
import { startLoopbackBotApi, type LoopbackBotApi } from './support/loopback-bot-api.js';
import { emitListingEvent } from './support/listing-events.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const BOT_TOKEN = '700000001:AAEnvironmentBotTokenForPostingTests_x1';
const CHANNEL = '-1001234567890';
const STOREFRONT = 'https://shop.example';

let bot: LoopbackBotApi;
/** Every response body this file received, checked for the bot token at the end. */
const responseTexts: string[] = [];

beforeAll(async () => {
  bot = await startLoopbackBotApi({ token: BOT_TOKEN });
});
afterAll(() => bot.close());
const server = useTestServer(() => ({
  MESSENGER_API_ROOT: bot.apiRoot,
  MESSENGER_BOT_TOKEN: BOT_TOKEN,
  MESSENGER_CHANNEL_ID: CHANNEL,
  STOREFRONT_URL: STOREFRONT,
  MESSENGER_TIMEOUT_MS: '1500',
}));
const api = apiClient(() => server.baseUrl, (response) => responseTexts.push(response.text));
const shop = useShop(server);
beforeEach(async () => {
  bot.reset();
  await server.db.delete(settings);
  await server.db.delete(syndicationConfigs);
  // A retry an earlier test left scheduled falls due a minute later: a listing write then sweeps it, posting it in the middle of another test.
  await server.db.update(syndicationLogs).set({ retryAt: null });
});

async function setSettings(values: Record<string, string>): Promise<void> {
  await server.db.insert(settings).values(Object.entries(values).map(([key, value]) => ({ key, value })));
}

/** Writes an image file as the local storage keeps it and returns its reference. */
function storedImage(bytes = crypto.randomBytes(64)): { ref: string; bytes: Buffer } {
  const name = `${crypto.randomUUID()}.webp`;
  fs.writeFileSync(path.join(server.uploadDir, name), bytes);
  return { ref: `/uploads/${name}`, bytes };
}

function listingOf(values: Partial<Parameters<typeof buildListing>[1]> = {}) {
  return buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, ...values });
}

async function logsOf(listingId: string) {
  return server.db.select().from(syndicationLogs).where(eq(syndicationLogs.listingId, listingId)).orderBy(desc(syndicationLogs.runAt));
}

async function failureNotifications(userId: string, listingId: string) {
  const rows = await server.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, 'SYNDICATION_FAILED')));
  return rows.filter((row) => row.data?.listingId === listingId);
}

const trigger = (listingId: string, token = shop.admin.token) => api.post(`/api/syndication/trigger/${listingId}`, { token });

describe('configuration in use', () => {
  it('shows the environment defaults as the MESSENGER config, token masked, while no row exists', async () => {
    const response = await api.get('/api/syndication/config', { token: shop.agent.token });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      {
        id: null,
        platform: 'MESSENGER',
        botToken: `••••••••${BOT_TOKEN.slice(-4)}`,
        channelId: CHANNEL,
        apiKey: null,
        apiSecret: null,
        isActive: true,
        extraConfig: null,
        source: 'environment',
        createdAt: null,
        updatedAt: null,
      },
    ]);
    const one = await api.get('/api/syndication/config/messenger', { token: shop.agent.token });
    expect(one.body.data).toMatchObject({ platform: 'MESSENGER', source: 'environment', channelId: CHANNEL });
  });

  it('keeps the environment token when an administrator saves its masked value with a new channel', async () => {
    const shown = (await api.get('/api/syndication/config/MESSENGER', { token: shop.admin.token })).body.data;
    const response = await api.post('/api/syndication/config', {
      token: shop.admin.token,
      json: { platform: 'MESSENGER', botToken: shown.botToken, channelId: '-1009999999999', isActive: true },
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ platform: 'MESSENGER', botToken: shown.botToken, channelId: '-1009999999999', source: 'database' });
    const [row] = await server.db.select().from(syndicationConfigs).where(eq(syndicationConfigs.platform, 'MESSENGER'));
    expect(row).toMatchObject({ botToken: BOT_TOKEN, channelId: '-1009999999999', isActive: true });
  });

  it('posts with a stored config instead of the environment defaults', async () => {
    const storedToken = '700000002:AAStoredConfigBotToken_abcdefghijklm';
    bot.acceptToken(storedToken);
    await server.db.insert(syndicationConfigs).values({ platform: 'MESSENGER', botToken: storedToken, channelId: '@shopdeals', isActive: true });
    const listing = await listingOf();
    const response = await trigger(listing.id);
    expect(response.status).toBe(200);
    const [call] = bot.callsTo('sendMessage');
    expect(call).toMatchObject({ token: storedToken, chatId: '@shopdeals' });
    expect((await logsOf(listing.id))[0]).toMatchObject({ status: 'SUCCESS', channelInfo: '@shopdeals', platform: 'MESSENGER' });
  });

  it('posts nothing while the stored config is switched off, although environment defaults exist', async () => {
    await server.db.insert(syndicationConfigs).values({ platform: 'MESSENGER', botToken: BOT_TOKEN, channelId: CHANNEL, isActive: false });
    const listing = await listingOf();
    const response = await trigger(listing.id);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, code: 'NOT_CONFIGURED', error: 'Channel posting is not configured: no active MESSENGER config with a bot token and channel id' });
    await emitListingEvent(server.db, { type: 'listing.created', listingId: listing.id });
    await settleDeferredWork();
    expect(await logsOf(listing.id)).toEqual([]);
    expect(bot.calls).toEqual([]);
  });
});

describe('POST /api/syndication/trigger/:listingId', () => {
  it('posts a listing without images as a text post with the caption and the buttons', async () => {
    await setSettings({ shopGoogleMapUrl: 'https://maps.example/shop', messengerHandle: '@shop_orders', chatNumber: '+1 555 0100' });
    const listing = await listingOf({
      title: 'iPhone 15 Pro',
      price: 1234567.5,
      description: 'Mint condition, boxed.',
      attributes: { brand: 'Apple', model: 'iPhone 15 Pro', storage: '256GB', batteryHealth: 97, hasWarranty: true },
    });
    const response = await trigger(listing.id);
    expect(response.status).toBe(200);
    const [call] = bot.callsTo('sendMessage');
    expect(response.body).toEqual({ success: true, data: { listingId: listing.id, messageId: expect.any(Number), message: 'Listing posted to the channel' } });
    expect(call).toMatchObject({ chatId: CHANNEL, parseMode: 'HTML', photoCount: 0 });
    expect(call!.text).toBe(
      [
        '<b>iPhone 15 Pro</b>',
        '<b>Price:</b> 1,234,567.50',
        '',
        '<b>Brand:</b> Apple',
        '<b>Model:</b> iPhone 15 Pro',
        '<b>Storage:</b> 256GB',
        '<b>Battery Health:</b> 97',
        '<b>Has Warranty:</b> Yes',
        '',
        'Mint condition, boxed.',
      ].join('\n'),
    );
    expect(call!.replyMarkup).toEqual({
      inline_keyboard: [
        [
          { text: 'Location', url: 'https://maps.example/shop' },
          { text: 'Explore', url: `${STOREFRONT}/listings/${listing.id}` },
          { text: 'Order', url: 'https://t.me/shop_orders' },
        ],
      ],
    });
    const [entry] = await logsOf(listing.id);
    expect(entry).toMatchObject({ status: 'SUCCESS', action: 'NEW_POST', platform: 'MESSENGER', channelInfo: CHANNEL, errorMessage: null });
    expect(entry!.messageId).toBe(response.body.data.messageId);
  });

  it('links Order to the chat number when no messaging handle is set, and leaves out Location without a map URL', async () => {
    await setSettings({ chatNumber: '+1 (555) 010-0200' });
    const listing = await listingOf();
    await trigger(listing.id);
    expect(bot.callsTo('sendMessage')[0]!.replyMarkup).toEqual({
      inline_keyboard: [
        [
          { text: 'Explore', url: `${STOREFRONT}/listings/${listing.id}` },
          { text: 'Order', url: 'https://wa.me/15550100200' },
        ],
      ],
    });
  });

  it('writes booleans as Yes/No, skips empty attributes and shows a status other than available', async () => {
    const listing = await listingOf({ status: 'SOLD', price: 5, description: '', attributes: { brand: 'Apple', model: '', storage: '64GB', hasWarranty: false } });
    await trigger(listing.id);
    expect(bot.callsTo('sendMessage')[0]!.text).toBe(
      ['<b>iPhone 15 Pro</b>', '<b>Price:</b> 5.00', '<b>Status:</b> Sold', '', '<b>Brand:</b> Apple', '<b>Storage:</b> 64GB', '<b>Has Warranty:</b> No'].join('\n'),
    );
  });

  it('escapes &, < and > in the title, attributes and description', async () => {
    const listing = await listingOf({ title: 'Tom & Jerry <3', description: 'a<b>c</b> & "d"', attributes: { brand: 'A&B', model: '<x>', storage: '64GB' } });
    await trigger(listing.id);
    const text = bot.callsTo('sendMessage')[0]!.text!;
    expect(text).toContain('<b>Tom &amp; Jerry &lt;3</b>');
    expect(text).toContain('<b>Brand:</b> A&amp;B');
    expect(text).toContain('<b>Model:</b> &lt;x&gt;');
    expect(text.endsWith('a&lt;b&gt;c&lt;/b&gt; &amp; "d"')).toBe(true);
  });

  it('uses the custom caption verbatim, escaped for the parse mode', async () => {
    const listing = await listingOf();
    await server.db.update(listings).set({ customTelegramCaption: 'Deal <b>now</b> & save\nLimited stock' }).where(eq(listings.id, listing.id));
    await trigger(listing.id);
    expect(bot.callsTo('sendMessage')[0]!.text).toBe('Deal &lt;b&gt;now&lt;/b&gt; &amp; save\nLimited stock');
  });

  it('keeps the caption within 1024 characters, cutting the description with an ellipsis and never inside an entity', async () => {
    const description = 'Fish & chips <tasty> '.repeat(200);
    const listing = await listingOf({ description });
    await trigger(listing.id);
    const text = bot.callsTo('sendMessage')[0]!.text!;
    expect(text.length).toBeLessThanOrEqual(1024);
    expect(text.length).toBeGreaterThan(1000);
    expect(text.endsWith('…')).toBe(true);
    expect(text.startsWith('<b>iPhone 15 Pro</b>\n<b>Price:</b> 999.99')).toBe(true);
    expect(text).toContain('<b>Storage:</b> 256GB');
    expect(text.replace(/<\/?b>/g, '').replace(/&(amp|lt|gt);/g, '')).not.toMatch(/[&<>]/);
    expect(text).toContain('Fish &amp; chips &lt;tasty&gt;');
    expect(text.match(/<b>/g)!.length).toBe(text.match(/<\/b>/g)!.length);
  });

  it('cuts an overlong custom caption the same way', async () => {
    const listing = await listingOf();
    await server.db.update(listings).set({ customTelegramCaption: '&'.repeat(2000) }).where(eq(listings.id, listing.id));
    await trigger(listing.id);
    const text = bot.callsTo('sendMessage')[0]!.text!;
    expect(text.length).toBeLessThanOrEqual(1024);
    expect(text).toBe(`${'&amp;'.repeat(204)}…`);
  });

  it('posts one image as a photo uploaded from storage, with caption and buttons', async () => {
    const image = storedImage();
    const listing = await listingOf({ images: [image.ref] });
    const response = await trigger(listing.id);
    expect(response.status).toBe(200);
    const [call] = bot.callsTo('sendPhoto');
    expect(call).toMatchObject({ chatId: CHANNEL, parseMode: 'HTML', photoCount: 1 });
    expect(call!.uploads).toHaveLength(1);
    expect(call!.uploads[0]!.equals(image.bytes)).toBe(true);
    expect(call!.caption).toMatch(/^<b>iPhone 15 Pro<\/b>/);
    expect(call!.replyMarkup).toEqual({ inline_keyboard: [[{ text: 'Explore', url: `${STOREFRONT}/listings/${listing.id}` }]] });
    expect(bot.callsTo('sendMessage')).toEqual([]);
  });

  it('passes an image-host URL to the Bot API as a URL', async () => {
    const url = 'https://res.cloudinary.com/demo/image/upload/v1/brostechnology/listings/phone.webp';
    const listing = await listingOf({ images: [url] });
    await trigger(listing.id);
    const [call] = bot.callsTo('sendPhoto');
    expect(call!.photoUrls).toEqual([url]);
    expect(call!.uploads).toEqual([]);
  });

  it('posts 2 to 10 images as a media group with the caption on the first, then the buttons, recording the first message id', async () => {
    const images = [storedImage(), storedImage(), storedImage()];
    const listing = await listingOf({ images: images.map((image) => image.ref) });
    const response = await trigger(listing.id);
    expect(response.status).toBe(200);
    const [group] = bot.callsTo('sendMediaGroup');
    expect(group).toMatchObject({ chatId: CHANNEL, photoCount: 3, parseMode: 'HTML' });
    expect(group!.uploads.map((upload) => upload.toString('hex'))).toEqual(images.map((image) => image.bytes.toString('hex')));
    expect(group!.caption).toMatch(/^<b>iPhone 15 Pro<\/b>/);
    expect(group!.params.media.slice(1).every((item: { caption?: string }) => item.caption === undefined)).toBe(true);
    const [buttons] = bot.callsTo('sendMessage');
    expect(buttons).toMatchObject({ chatId: CHANNEL, text: '<b>iPhone 15 Pro</b>' });
    expect(buttons!.replyMarkup!.inline_keyboard[0]!.map((button) => button.text)).toEqual(['Explore']);
    expect(group!.result.map((message: { message_id: number }) => message.message_id)).toHaveLength(3);
    expect(response.body.data.messageId).toBe(group!.result[0].message_id);
    const albumIds = group!.result.map((message: { message_id: number }) => message.message_id);
    expect(await logsOf(listing.id)).toMatchObject([{ messageId: response.body.data.messageId, postMessageIds: [...albumIds, buttons!.result.message_id] }]);
    expect(bot.calls.map((call) => call.method)).toEqual(['sendMediaGroup', 'sendMessage']);
  });

  it('fails an album whose buttons message did not go out, keeping its messages, and a retry sends only the buttons', async () => {
    const listing = await listingOf({ images: [storedImage().ref, storedImage().ref] });
    bot.fail('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 5', parameters: { retry_after: 5 } });
    const response = await trigger(listing.id);
    expect(response.status).toBe(502);
    const albumIds = bot.callsTo('sendMediaGroup')[0]!.result.map((message: { message_id: number }) => message.message_id);
    const [failed] = await logsOf(listing.id);
    expect(failed).toMatchObject({ status: 'FAILED', action: 'NEW_POST', messageId: albumIds[0], postMessageIds: albumIds });
    expect(failed!.errorMessage).toContain('The album was posted, but its buttons message was not');

    bot.reset();
    const retried = await api.post(`/api/syndication/retry/${failed!.id}`, { token: shop.admin.token });
    expect(retried.status).toBe(200);
    expect(bot.calls.map((call) => call.method)).toEqual(['sendMessage']);
    const buttonsId = bot.callsTo('sendMessage')[0]!.result.message_id;
    expect(retried.body.data).toMatchObject({ status: 'SUCCESS', messageId: albumIds[0] });
    const entries = await logsOf(listing.id);
    expect(entries.find((entry) => entry.id === retried.body.data.id)).toMatchObject({ postMessageIds: [...albumIds, buttonsId] });

    bot.reset();
    expect((await api.delete(`/api/listings/${listing.id}`, { token: shop.admin.token })).status).toBe(200);
    await settleDeferredWork();
    expect(bot.callsTo('deleteMessages').flatMap((call) => call.params.message_ids)).toEqual([...albumIds, buttonsId]);
  });

  it('keeps an album whose buttons message got no answer, saying the buttons may be on the channel, and never sends them again on its own', async () => {
    const listing = await listingOf({ images: [storedImage().ref, storedImage().ref] });
    bot.hang('sendMessage');
    const response = await trigger(listing.id);
    expect(response.status).toBe(502);
    const albumIds = bot.callsTo('sendMediaGroup')[0]!.result.map((message: { message_id: number }) => message.message_id);
    const errorMessage =
      'Outcome unknown: The album was posted, and its buttons message may have been too: Bot API sendMessage timed out after 1.5 s. The post may be on the channel, so it is not sent again on its own: check the channel, and retry this entry if the post is missing';
    expect(response.body.error).toBe(`Posting to the channel failed: ${errorMessage}`);
    expect(await logsOf(listing.id)).toMatchObject([{ status: 'FAILED', postMessageIds: albumIds, retryAt: null, errorMessage }]);
  });

  it('fails the entry with a message naming an image that cannot be read, and notifies the agent', async () => {
    const missing = `/uploads/${crypto.randomUUID()}.webp`;
    const listing = await listingOf({ images: [storedImage().ref, missing] });
    const response = await trigger(listing.id);
    expect(response.status).toBe(502);
    const errorMessage = `Image "${missing}" could not be read: the file is missing`;
    expect(response.body).toEqual({ success: false, code: 'UPSTREAM_FAILED', error: `Posting to the channel failed: ${errorMessage}` });
    expect(await logsOf(listing.id)).toMatchObject([{ status: 'FAILED', action: 'NEW_POST', messageId: null, errorMessage }]);
    expect(bot.calls).toEqual([]);
    const [notice] = await failureNotifications(shop.agent.id, listing.id);
    expect(notice).toMatchObject({ title: 'Channel post failed for "iPhone 15 Pro"', isRead: false });
    expect(notice!.body).toContain(errorMessage);
  });

  it('answers 502 with the Bot API error, keeps the FAILED entry and notifies the agent', async () => {
    bot.fail('sendMessage', { error_code: 400, description: 'Bad Request: chat not found' });
    const listing = await listingOf();
    const response = await trigger(listing.id);
    expect(response.status).toBe(502);
    const errorMessage = 'Bot API sendMessage failed (400): Bad Request: chat not found';
    expect(response.body).toEqual({ success: false, code: 'UPSTREAM_FAILED', error: `Posting to the channel failed: ${errorMessage}` });
    expect(await logsOf(listing.id)).toMatchObject([{ status: 'FAILED', errorMessage }]);
    expect(await failureNotifications(shop.agent.id, listing.id)).toHaveLength(1);
  });

  it('gives up on a Bot API that never answers, within the configured timeout, saying the outcome is unknown', async () => {
    bot.hang('sendMessage');
    const listing = await listingOf();
    const response = await trigger(listing.id);
    const errorMessage = 'Outcome unknown: Bot API sendMessage timed out after 1.5 s. The post may be on the channel, so it is not sent again on its own: check the channel, and retry this entry if the post is missing';
    expect(response.status).toBe(502);
    expect(response.body.error).toBe(`Posting to the channel failed: ${errorMessage}`);
    expect(await logsOf(listing.id)).toMatchObject([{ status: 'FAILED', retryAt: null, errorMessage }]);
  });

  it('reports a rejected bot token without the token', async () => {
    const storedToken = '700000003:AARejectedBotToken_abcdefghijklmnopq';
    await server.db.insert(syndicationConfigs).values({ platform: 'MESSENGER', botToken: storedToken, channelId: CHANNEL });
    const listing = await listingOf();
    const response = await trigger(listing.id);
    expect(response.status).toBe(502);
    expect(response.text).not.toContain(storedToken);
    const [entry] = await logsOf(listing.id);
    expect(entry!.errorMessage).toBe('Bot API sendMessage failed (401): Unauthorized');
  });

  it('lets an agent post their own listing', async () => {
    const listing = await listingOf();
    const response = await trigger(listing.id, shop.agent.token);
    expect(response.status).toBe(200);
    expect(bot.callsTo('sendMessage')).toHaveLength(1);
  });

  it('always makes a new post, even for a listing already posted', async () => {
    const listing = await listingOf();
    const first = await trigger(listing.id);
    const second = await trigger(listing.id);
    expect(second.body.data.messageId).not.toBe(first.body.data.messageId);
    expect((await logsOf(listing.id)).map((entry) => entry.action)).toEqual(['NEW_POST', 'NEW_POST']);
    expect(bot.callsTo('sendMessage')).toHaveLength(2);
  });

  it('answers 404 for an unknown listing and 400 for a malformed id', async () => {
    const id = crypto.randomUUID();
    const unknown = await trigger(id);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, code: 'NOT_FOUND', error: `Listing with id "${id}" not found` });
    const malformed = await trigger('not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body.details[0]).toMatchObject({ field: 'listingId' });
  });

  describe('security', () => {
    it("refuses another agent's listing with 403 and posts nothing", async () => {
      const listing = await listingOf();
      const response = await trigger(listing.id, shop.otherAgent.token);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Not authorized' });
      expect(await logsOf(listing.id)).toEqual([]);
      expect(bot.calls).toEqual([]);
    });

    it('refuses missing, malformed and expired tokens', async () => {
      const listing = await listingOf();
      const anonymous = await api.post(`/api/syndication/trigger/${listing.id}`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Missing or malformed Authorization header' });
      expect((await trigger(listing.id, 'garbage')).body.error).toBe('Invalid token');
      expect((await trigger(listing.id, await expiredToken(shop.agent))).body.error).toBe('Token has expired');
      expect(await logsOf(listing.id)).toEqual([]);
    });
  });
});

describe('POST /api/syndication/retry/:id', () => {
  async function failedEntry(values: Partial<Parameters<typeof buildListing>[1]> = {}) {
    const listing = await listingOf(values);
    bot.fail('*', { error_code: 500, description: 'Internal Server Error' });
    await trigger(listing.id);
    bot.reset();
    const [entry] = await logsOf(listing.id);
    return { listing, entry: entry! };
  }

  it('retries a failed entry as a new entry with the same action and returns it', async () => {
    const { listing, entry } = await failedEntry();
    const response = await api.post(`/api/syndication/retry/${entry.id}`, { token: shop.agent.token });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      listingId: listing.id,
      platform: 'MESSENGER',
      status: 'SUCCESS',
      action: 'NEW_POST',
      channelInfo: CHANNEL,
      messageId: expect.any(Number),
      errorMessage: null,
      listing: { id: listing.id, title: listing.title },
    });
    expect(response.body.data.id).not.toBe(entry.id);
    const entries = await logsOf(listing.id);
    expect(entries.map((row) => [row.id, row.status])).toEqual([
      [response.body.data.id, 'SUCCESS'],
      [entry.id, 'FAILED'],
    ]);
    expect(bot.callsTo('sendMessage')).toHaveLength(1);
  });

  it('returns the new FAILED entry when the retry fails too', async () => {
    const { entry } = await failedEntry();
    bot.fail('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 5' });
    const response = await api.post(`/api/syndication/retry/${entry.id}`, { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ status: 'FAILED', errorMessage: 'Bot API sendMessage failed (429): Too Many Requests: retry after 5' });
  });

  it('retries a failed edit as an edit of the listing post', async () => {
    const listing = await listingOf();
    const posted = await trigger(listing.id);
    bot.fail('editMessageText', { error_code: 502, description: 'Bad Gateway' });
    await server.db.update(listings).set({ title: 'iPhone 15 Pro Max' }).where(eq(listings.id, listing.id));
    await emitListingEvent(server.db, { type: 'listing.updated', listingId: listing.id });
    await settleDeferredWork();
    const [failed] = await logsOf(listing.id);
    expect(failed).toMatchObject({ status: 'FAILED', action: 'EDITED' });
    bot.reset();
    const response = await api.post(`/api/syndication/retry/${failed!.id}`, { token: shop.admin.token });
    expect(response.body.data).toMatchObject({ status: 'SUCCESS', action: 'EDITED', messageId: posted.body.data.messageId });
    const [edit] = bot.callsTo('editMessageText');
    expect(edit!.text).toMatch(/^<b>iPhone 15 Pro Max<\/b>/);
    expect(bot.messagesIn(CHANNEL).get(posted.body.data.messageId)!.content).toMatch(/^<b>iPhone 15 Pro Max<\/b>/);
  });

  it('refuses to retry an entry that did not fail with 409', async () => {
    const listing = await listingOf();
    await trigger(listing.id);
    const [entry] = await logsOf(listing.id);
    const response = await api.post(`/api/syndication/retry/${entry!.id}`, { token: shop.admin.token });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, code: 'CONFLICT', error: 'Only a FAILED entry can be retried; this one is SUCCESS' });
    expect(await logsOf(listing.id)).toHaveLength(1);
  });

  it('answers 404 for an unknown entry and 400 for a malformed id', async () => {
    const id = crypto.randomUUID();
    const response = await api.post(`/api/syndication/retry/${id}`, { token: shop.admin.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: `Syndication log with id "${id}" not found` });
    const malformed = await api.post('/api/syndication/retry/42', { token: shop.admin.token });
    expect(malformed.status).toBe(400);
    expect(malformed.body.details).toEqual([expect.objectContaining({ field: 'id' })]);
  });

  it('answers 409 when posting has been switched off since', async () => {
    const { listing, entry } = await failedEntry();
    await server.db.insert(syndicationConfigs).values({ platform: 'MESSENGER', botToken: BOT_TOKEN, channelId: CHANNEL, isActive: false });
    const response = await api.post(`/api/syndication/retry/${entry.id}`, { token: shop.admin.token });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, code: 'NOT_CONFIGURED', error: 'Channel posting is not configured: no active MESSENGER config with a bot token and channel id' });
    expect(await logsOf(listing.id)).toHaveLength(1);
  });

  describe('security', () => {
    it("refuses another agent's entry with 403", async () => {
      const { listing, entry } = await failedEntry();
      const response = await api.post(`/api/syndication/retry/${entry.id}`, { token: shop.otherAgent.token });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Not authorized' });
      expect(await logsOf(listing.id)).toHaveLength(1);
    });

    it('refuses a request without a token or with a deleted user', async () => {
      const { entry } = await failedEntry();
      expect((await api.post(`/api/syndication/retry/${entry.id}`)).status).toBe(401);
      const doomed = await buildAgent(server.db);
      await server.db.delete(users).where(eq(users.id, doomed.id));
      const orphan = await api.post(`/api/syndication/retry/${entry.id}`, { token: doomed.token });
      expect(orphan.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'User no longer exists' });
    });
  });
});

describe('GET /api/syndication/logs', () => {
  let own: { id: string; title: string };
  let others: { id: string; title: string };

  beforeAll(async () => {
    await server.db.delete(syndicationLogs);
    own = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Own phone' });
    others = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.otherAgent.id, title: 'Other phone' });
    const base = Date.now() - 60_000;
    await server.db.insert(syndicationLogs).values([
      { listingId: own.id, platform: 'MESSENGER', status: 'SUCCESS', action: 'NEW_POST', channelInfo: CHANNEL, messageId: 11, runAt: new Date(base) },
      { listingId: own.id, platform: 'MESSENGER', status: 'FAILED', action: 'EDITED', channelInfo: CHANNEL, errorMessage: 'boom', runAt: new Date(base + 1000) },
      { listingId: others.id, platform: 'MESSENGER', status: 'SUCCESS', action: 'NEW_POST', channelInfo: CHANNEL, messageId: 12, runAt: new Date(base + 2000) },
      { listingId: own.id, platform: 'MESSENGER', status: 'PENDING', action: 'NEW_POST', channelInfo: CHANNEL, runAt: new Date(base + 3000) },
    ]);
  });
  // Its PENDING entry is almost a minute old: left behind, a later listing write's sweep would post it.
  afterAll(async () => {
    await server.db.delete(syndicationLogs);
  });

  it('shows an administrator every entry, newest first, each with its listing', async () => {
    const response = await api.get('/api/syndication/logs', { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body.pagination).toEqual({ page: 1, limit: 20, total: 4, totalPages: 1, totalExact: true });
    expect(response.body.data.map((item: any) => [item.listing.title, item.status])).toEqual([
      ['Own phone', 'PENDING'],
      ['Other phone', 'SUCCESS'],
      ['Own phone', 'FAILED'],
      ['Own phone', 'SUCCESS'],
    ]);
    expect(response.body.data[2]).toEqual({
      id: expect.any(String),
      listingId: own.id,
      platform: 'MESSENGER',
      status: 'FAILED',
      action: 'EDITED',
      channelInfo: CHANNEL,
      messageId: null,
      errorMessage: 'boom',
      runAt: expect.any(String),
      listing: { id: own.id, title: 'Own phone' },
    });
  });

  it("shows an agent only their own listings' entries", async () => {
    const response = await api.get('/api/syndication/logs', { token: shop.agent.token });
    expect(response.body.pagination.total).toBe(3);
    expect(response.body.data.every((item: any) => item.listingId === own.id)).toBe(true);
    const filtered = await api.get(`/api/syndication/logs?listingId=${others.id}`, { token: shop.agent.token });
    expect(filtered.body.data).toEqual([]);
    expect(filtered.body.pagination.total).toBe(0);
  });

  it("counts an agent's entries one by one below a thousand, and from there says a thousand, flagged as not exact", async () => {
    const busy = await buildAgent(server.db);
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: busy.id, title: 'Often posted' });
    const runAt = new Date(Date.now() - 120_000);
    const entry = { listingId: listing.id, platform: 'MESSENGER' as const, status: 'SUCCESS' as const, action: 'EDITED' as const, channelInfo: CHANNEL, runAt };
    await server.db.insert(syndicationLogs).values(Array.from({ length: 999 }, () => entry));
    const counted = await api.get('/api/syndication/logs', { token: busy.token });
    expect(counted.body.pagination).toEqual({ page: 1, limit: 20, total: 999, totalPages: 50, totalExact: true });
    await server.db.insert(syndicationLogs).values([entry, entry]);
    const capped = await api.get('/api/syndication/logs', { token: busy.token });
    expect(capped.body.pagination).toEqual({ page: 1, limit: 20, total: 1_000, totalPages: 50, totalExact: false });
    expect(capped.body.data).toHaveLength(20);
    const administrators = await api.get(`/api/syndication/logs?listingId=${listing.id}`, { token: shop.admin.token });
    expect(administrators.body.pagination).toMatchObject({ total: 1_001, totalExact: true });
    await server.db.delete(syndicationLogs).where(eq(syndicationLogs.listingId, listing.id));
  });

  it('filters by status, action and listing, and pages', async () => {
    const failed = await api.get('/api/syndication/logs?status=FAILED', { token: shop.admin.token });
    expect(failed.body.data.map((item: any) => item.errorMessage)).toEqual(['boom']);
    const posts = await api.get(`/api/syndication/logs?action=NEW_POST&listingId=${own.id}`, { token: shop.admin.token });
    expect(posts.body.data.map((item: any) => item.status)).toEqual(['PENDING', 'SUCCESS']);
    const page = await api.get('/api/syndication/logs?page=2&limit=3', { token: shop.admin.token });
    expect(page.body.pagination).toEqual({ page: 2, limit: 3, total: 4, totalPages: 2, totalExact: true });
    expect(page.body.data.map((item: any) => item.messageId)).toEqual([11]);
  });

  it('refuses unknown filter values and a limit under 1', async () => {
    for (const query of ['status=DONE', 'action=POSTED', 'listingId=7', 'limit=0', 'page=0']) {
      const response = await api.get(`/api/syndication/logs?${query}`, { token: shop.admin.token });
      expect(response.status).toBe(400);
      expect(response.body.success).toBe(false);
      expect(response.body.details).toHaveLength(1);
    }
  });

  it('refuses a request without a token', async () => {
    const response = await api.get('/api/syndication/logs');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Missing or malformed Authorization header' });
  });
});

describe('listing events', () => {
  it('posts a created listing as a new post', async () => {
    const listing = await listingOf();
    await emitListingEvent(server.db, { type: 'listing.created', listingId: listing.id });
    await settleDeferredWork();
    expect(await logsOf(listing.id)).toMatchObject([{ status: 'SUCCESS', action: 'NEW_POST', messageId: expect.any(Number) }]);
    expect(bot.callsTo('sendMessage')).toHaveLength(1);
  });

  it('edits the caption and buttons of the latest post when a posted listing is updated', async () => {
    const image = storedImage();
    const listing = await listingOf({ images: [image.ref] });
    const posted = await trigger(listing.id);
    await setSettings({ messengerHandle: 'shop_orders' });
    await server.db.update(listings).set({ price: 850 }).where(eq(listings.id, listing.id));
    await emitListingEvent(server.db, { type: 'listing.updated', listingId: listing.id });
    await settleDeferredWork();
    const [edit] = bot.callsTo('editMessageCaption');
    expect(edit).toMatchObject({ chatId: CHANNEL, parseMode: 'HTML' });
    expect(Number(edit!.params.message_id)).toBe(posted.body.data.messageId);
    expect(edit!.caption).toContain('<b>Price:</b> 850.00');
    expect(edit!.replyMarkup!.inline_keyboard[0]!.map((button) => button.text)).toEqual(['Explore', 'Order']);
    expect((await logsOf(listing.id))[0]).toMatchObject({ status: 'SUCCESS', action: 'EDITED', messageId: posted.body.data.messageId });
  });

  it('edits the caption of the first item of a media group post', async () => {
    const listing = await listingOf({ images: [storedImage().ref, storedImage().ref] });
    const posted = await trigger(listing.id);
    await server.db.update(listings).set({ title: 'iPhone 15 Pro (2 left)' }).where(eq(listings.id, listing.id));
    await emitListingEvent(server.db, { type: 'listing.updated', listingId: listing.id });
    await settleDeferredWork();
    const [edit] = bot.callsTo('editMessageCaption');
    expect(Number(edit!.params.message_id)).toBe(posted.body.data.messageId);
    expect(bot.messagesIn(CHANNEL).get(posted.body.data.messageId)!.content).toMatch(/^<b>iPhone 15 Pro \(2 left\)<\/b>/);
    expect((await logsOf(listing.id))[0]).toMatchObject({ status: 'SUCCESS', action: 'EDITED' });
  });

  it('edits a text post with editMessageText, switching when the images changed since', async () => {
    const listing = await listingOf();
    const posted = await trigger(listing.id);
    await server.db.update(listings).set({ images: [storedImage().ref] }).where(eq(listings.id, listing.id));
    await emitListingEvent(server.db, { type: 'listing.updated', listingId: listing.id });
    await settleDeferredWork();
    expect(bot.calls.map((call) => call.method)).toEqual(['sendMessage', 'editMessageCaption', 'editMessageText']);
    expect(Number(bot.callsTo('editMessageText')[0]!.params.message_id)).toBe(posted.body.data.messageId);
    expect((await logsOf(listing.id))[0]).toMatchObject({ status: 'SUCCESS', action: 'EDITED' });
  });

  it('counts an edit that changes nothing as done', async () => {
    const listing = await listingOf();
    await trigger(listing.id);
    await emitListingEvent(server.db, { type: 'listing.updated', listingId: listing.id });
    await settleDeferredWork();
    expect(bot.callsTo('editMessageText')).toHaveLength(1);
    expect((await logsOf(listing.id))[0]).toMatchObject({ status: 'SUCCESS', action: 'EDITED' });
  });

  it('posts an updated listing that has no successful post yet as a new post', async () => {
    const listing = await listingOf();
    bot.fail('sendMessage', { error_code: 400, description: 'Bad Request: chat not found' });
    await trigger(listing.id);
    bot.reset();
    await emitListingEvent(server.db, { type: 'listing.updated', listingId: listing.id });
    await settleDeferredWork();
    expect((await logsOf(listing.id)).map((entry) => [entry.action, entry.status])).toEqual([
      ['NEW_POST', 'SUCCESS'],
      ['NEW_POST', 'FAILED'],
    ]);
  });

  it("deletes a deleted listing's channel posts, carrying on past one that is already gone", async () => {
    const listing = await listingOf();
    const first = (await trigger(listing.id)).body.data.messageId as number;
    const second = (await trigger(listing.id)).body.data.messageId as number;
    bot.messagesIn(CHANNEL).delete(first);
    expect((await api.delete(`/api/listings/${listing.id}`, { token: shop.admin.token })).status).toBe(200);
    await settleDeferredWork();
    expect(bot.callsTo('deleteMessages').map((call) => call.params.message_ids)).toEqual([[first, second]]);
    expect(bot.messagesIn(CHANNEL).has(second)).toBe(false);
  });

  it('records a failure when the channel is down, without throwing to the writer', async () => {
    bot.fail('*', { error_code: 500, description: 'Internal Server Error' });
    const listing = await listingOf();
    await expect(emitListingEvent(server.db, { type: 'listing.created', listingId: listing.id })).resolves.toBeUndefined();
    expect(await logsOf(listing.id)).toMatchObject([{ status: 'FAILED', errorMessage: 'Bot API sendMessage failed (500): Internal Server Error' }]);
    expect(await failureNotifications(shop.agent.id, listing.id)).toHaveLength(1);
  });
});

describe('POST /api/syndication/delete-message/:messageId', () => {
  it('deletes a channel message', async () => {
    const listing = await listingOf();
    const { messageId } = (await trigger(listing.id)).body.data;
    const response = await api.post(`/api/syndication/delete-message/${messageId}`, { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { messageId, deleted: true } });
    expect(bot.callsTo('deleteMessage')[0]).toMatchObject({ chatId: CHANNEL, params: { message_id: messageId } });
    expect(bot.messagesIn(CHANNEL).has(messageId)).toBe(false);
  });

  it('answers 404 for a message the channel does not have', async () => {
    const response = await api.post('/api/syndication/delete-message/999999', { token: shop.admin.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Message 999999 not found in the channel' });
  });

  it('answers 502 when the Bot API fails otherwise', async () => {
    bot.fail('deleteMessage', { error_code: 403, description: 'Forbidden: bot is not a member of the channel chat' });
    const response = await api.post('/api/syndication/delete-message/5', { token: shop.admin.token });
    expect(response.status).toBe(502);
    expect(response.body.error).toBe('Bot API deleteMessage failed (403): Forbidden: bot is not a member of the channel chat');
  });

  it('refuses a message id that is not a positive whole number', async () => {
    for (const id of ['0', 'abc', '-3', '1.5']) {
      const response = await api.post(`/api/syndication/delete-message/${id}`, { token: shop.admin.token });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([expect.objectContaining({ field: 'messageId', received: id })]);
    }
    expect(bot.calls).toEqual([]);
  });

  it('refuses an agent', async () => {
    const response = await api.post('/api/syndication/delete-message/5', { token: shop.agent.token });
    expect(response.status).toBe(403);
    expect(response.body.error).toBe('Role "AGENT" is not authorized for this resource');
    expect(bot.calls).toEqual([]);
  });
});

describe('POST /api/syndication/edit-message/:messageId', () => {
  it("sets a listing post's caption, escaped, keeping the listing's buttons", async () => {
    const listing = await listingOf({ images: [storedImage().ref] });
    const { messageId } = (await trigger(listing.id)).body.data;
    const response = await api.post(`/api/syndication/edit-message/${messageId}`, { token: shop.admin.token, json: { caption: 'Price drop: 5 < 6 & more' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { messageId, caption: 'Price drop: 5 < 6 & more', edited: true } });
    const [edit] = bot.callsTo('editMessageCaption');
    expect(edit).toMatchObject({ chatId: CHANNEL, caption: 'Price drop: 5 &lt; 6 &amp; more', parseMode: 'HTML' });
    expect(edit!.replyMarkup).toEqual({ inline_keyboard: [[{ text: 'Explore', url: `${STOREFRONT}/listings/${listing.id}` }]] });
    expect(bot.messagesIn(CHANNEL).get(messageId)!.content).toBe('Price drop: 5 &lt; 6 &amp; more');
  });

  it('edits the text of a text post', async () => {
    const listing = await listingOf();
    const { messageId } = (await trigger(listing.id)).body.data;
    const response = await api.post(`/api/syndication/edit-message/${messageId}`, { token: shop.admin.token, json: { caption: 'Sold out' } });
    expect(response.status).toBe(200);
    expect(bot.callsTo('editMessageText')[0]).toMatchObject({ text: 'Sold out' });
  });

  it('refuses an empty or overlong caption', async () => {
    for (const caption of ['', '   ', 'x'.repeat(1025)]) {
      const response = await api.post('/api/syndication/edit-message/5', { token: shop.admin.token, json: { caption } });
      expect(response.status).toBe(400);
      expect(response.body.details[0].field).toBe('caption');
    }
    const missing = await api.post('/api/syndication/edit-message/5', { token: shop.admin.token, json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([expect.objectContaining({ field: 'caption' })]);
    expect(bot.calls).toEqual([]);
  });

  it('answers 404 for a message the channel does not have', async () => {
    const response = await api.post('/api/syndication/edit-message/999999', { token: shop.admin.token, json: { caption: 'x' } });
    expect(response.status).toBe(404);
    expect(response.body.error).toBe('Message 999999 not found in the channel');
  });

  it('refuses an agent', async () => {
    const response = await api.post('/api/syndication/edit-message/5', { token: shop.agent.token, json: { caption: 'x' } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Role "AGENT" is not authorized for this resource' });
    expect(bot.calls).toEqual([]);
  });
});

describe('the bot token', () => {
  it('appears in no response and no stored error message', async () => {
    expect(responseTexts.length).toBeGreaterThan(50);
    for (const text of responseTexts) expect(text).not.toContain(BOT_TOKEN.split(':')[1]);
    const stored = await server.db.select({ errorMessage: syndicationLogs.errorMessage }).from(syndicationLogs);
    for (const { errorMessage } of stored) expect(errorMessage ?? '').not.toContain(BOT_TOKEN.split(':')[1]);
  });
});
