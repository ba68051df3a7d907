import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listings, notifications, syndicationLogs } from '../lib/db/schema.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { buildCategory } from './support/catalog-factories.js';
import { buildAgent, type TestUser } from './support/factories.js';
import { startLoopbackBotApi, type LoopbackBotApi } from './support/loopback-bot-api.js';
import { useTestServer } from './support/test-server.js';

const BOT_TOKEN = '900000001:AAListingWritesBotToken_abcdefghijklm';
const CHANNEL = '-1007770002222';
const STOREFRONT = 'https://store.example';

let bot: LoopbackBotApi;
let agent: TestUser;
let categoryId: string;

beforeAll(async () => {
  bot = await startLoopbackBotApi({ token: BOT_TOKEN });
});
afterAll(() => bot.close());
const server = useTestServer(() => ({
  MESSENGER_API_ROOT: bot.apiRoot,
  MESSENGER_BOT_TOKEN: BOT_TOKEN,
  MESSENGER_CHANNEL_ID: CHANNEL,
  STOREFRONT_URL: STOREFRONT,
  MESSENGER_TIMEOUT_MS: '1000',
}));
const api = server.api;
beforeAll(async () => {
  agent = await buildAgent(server.db);
  categoryId = (await buildCategory(server.db)).id;
});
beforeEach(() => bot.reset());

const ATTRIBUTES = { brand: 'Apple', model: 'iPhone 15', storage: '128GB' };

async function photo(color: string): Promise<Blob> {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: color } }).png().toBuffer();
  return new Blob([new Uint8Array(png)], { type: 'image/png' });
}

async function createListing(fields: Record<string, string> = {}, images: Blob[] = []) {
  const form = new FormData();
  const values = { title: 'iPhone 15', price: '700', categoryId, attributes: JSON.stringify(ATTRIBUTES), ...fields };
  for (const [name, value] of Object.entries(values)) form.append(name, value);
  images.forEach((image, index) => form.append('images', image, `photo-${index}.png`));
  const response = await api.post('/api/listings', { token: agent.token, form });
  // The response leaves before the channel is done; the test waits for the work it deferred.
  await settleDeferredWork();
  return response;
}

async function logsOf(listingId: string) {
  return server.db.select().from(syndicationLogs).where(eq(syndicationLogs.listingId, listingId)).orderBy(syndicationLogs.runAt);
}

describe('listing writes drive the channel', () => {
  it('posts a listing created with images as a media group of its stored images', async () => {
    const response = await createListing({}, [await photo('red'), await photo('blue')]);
    expect(response.status).toBe(201);
    const { id, images } = response.body.data as { id: string; images: string[] };
    const [group] = bot.callsTo('sendMediaGroup');
    expect(group).toMatchObject({ chatId: CHANNEL, photoCount: 2, parseMode: 'HTML' });
    const storedFiles = images.map((ref) => fs.readFileSync(path.join(server.uploadDir, path.basename(ref))));
    expect(group!.uploads.map((upload) => upload.toString('hex'))).toEqual(storedFiles.map((file) => file.toString('hex')));
    expect(group!.caption).toContain('<b>iPhone 15</b>\n<b>Price:</b> 700.00');
    expect(bot.callsTo('sendMessage')[0]!.replyMarkup).toEqual({ inline_keyboard: [[{ text: 'Explore', url: `${STOREFRONT}/listings/${id}` }]] });
    expect(await logsOf(id)).toMatchObject([{ status: 'SUCCESS', action: 'NEW_POST', channelInfo: CHANNEL, messageId: group!.result[0].message_id }]);
  });

  it('removes every message of a media group post, buttons message included, when the listing is deleted', async () => {
    const created = await createListing({}, [await photo('red'), await photo('blue'), await photo('green')]);
    const { id } = created.body.data as { id: string };
    await settleDeferredWork();
    const [group] = bot.callsTo('sendMediaGroup');
    const [buttons] = bot.callsTo('sendMessage');
    const posted: number[] = [...group!.result.map((message: { message_id: number }) => message.message_id), buttons!.result.message_id];
    for (const messageId of posted) expect(bot.messagesIn(CHANNEL).has(messageId)).toBe(true);

    expect((await api.delete(`/api/listings/${id}`, { token: agent.token })).status).toBe(200);
    await settleDeferredWork();
    expect(bot.callsTo('deleteMessages').map((call) => call.params.message_ids)).toEqual([posted]);
    for (const messageId of posted) expect(bot.messagesIn(CHANNEL).has(messageId)).toBe(false);
  });

  it('edits the post when the listing is updated, and removes it when the listing goes to the trash', async () => {
    const created = await createListing();
    const { id } = created.body.data;
    const messageId = (await logsOf(id))[0]!.messageId!;

    const form = new FormData();
    form.append('price', '650');
    const updated = await api.patch(`/api/listings/${id}`, { token: agent.token, form });
    await settleDeferredWork();
    expect(updated.status).toBe(200);
    const [edit] = bot.callsTo('editMessageText');
    expect(Number(edit!.params.message_id)).toBe(messageId);
    expect(edit!.text).toContain('<b>Price:</b> 650.00');
    expect((await logsOf(id)).map((entry) => [entry.action, entry.status, entry.messageId])).toEqual([
      ['NEW_POST', 'SUCCESS', messageId],
      ['EDITED', 'SUCCESS', messageId],
    ]);

    const deleted = await api.delete(`/api/listings/${id}`, { token: agent.token });
    await settleDeferredWork();
    expect(deleted.status).toBe(200);
    expect(bot.callsTo('deleteMessages').map((call) => [call.chatId, call.params.message_ids])).toEqual([[CHANNEL, [messageId]]]);
    expect(bot.messagesIn(CHANNEL).has(messageId)).toBe(false);
    // The entries stay with the listing in the trash.
    expect((await logsOf(id)).map((entry) => [entry.action, entry.status, entry.messageId])).toEqual([
      ['NEW_POST', 'SUCCESS', messageId],
      ['EDITED', 'SUCCESS', messageId],
    ]);
  });

  it('creates the listing while the channel is down, recording the failure and telling the agent', async () => {
    bot.fail('*', { error_code: 500, description: 'Internal Server Error' });
    const response = await createListing({ title: 'Galaxy S24' });
    expect(response.status).toBe(201);
    const { id } = response.body.data;
    const [row] = await server.db.select().from(listings).where(eq(listings.id, id));
    expect(row).toMatchObject({ title: 'Galaxy S24' });
    expect(await logsOf(id)).toMatchObject([{ status: 'FAILED', errorMessage: 'Bot API sendMessage failed (500): Internal Server Error' }]);
    const notices = await server.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, agent.id), eq(notifications.type, 'SYNDICATION_FAILED')));
    expect(notices.filter((notice) => notice.data?.listingId === id)).toMatchObject([{ title: 'Channel post failed for "Galaxy S24"' }]);
  });

  it('creates the listing while the channel hangs, failing the entry at the timeout with its outcome unknown', async () => {
    bot.hang('sendMessage');
    const response = await createListing({ title: 'Pixel 9' });
    expect(response.status).toBe(201);
    const { id } = response.body.data;
    expect(await server.db.select({ id: listings.id }).from(listings).where(eq(listings.id, id))).toEqual([{ id }]);
    expect(await logsOf(id)).toMatchObject([{ status: 'FAILED', retryAt: null, errorMessage: 'Outcome unknown: Bot API sendMessage timed out after 1 s. The post may be on the channel, so it is not sent again on its own: check the channel, and retry this entry if the post is missing' }]);
  });

  it('updates the listing while the channel is down', async () => {
    const created = await createListing();
    const { id } = created.body.data;
    bot.fail('*', { error_code: 502, description: 'Bad Gateway' });
    const form = new FormData();
    form.append('title', 'iPhone 15 (renewed)');
    const response = await api.patch(`/api/listings/${id}`, { token: agent.token, form });
    await settleDeferredWork();
    expect(response.status).toBe(200);
    expect(response.body.data.title).toBe('iPhone 15 (renewed)');
    expect((await logsOf(id)).map((entry) => [entry.action, entry.status])).toEqual([
      ['NEW_POST', 'SUCCESS'],
      ['EDITED', 'FAILED'],
    ]);
  });
});
