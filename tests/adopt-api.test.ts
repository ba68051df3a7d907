import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentCodes, listingTotals, settings, syndicationLogs, users } from '../lib/db/schema.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { prepareAdoptedDatabase } from './support/adopted-database.js';
import { makeTempDir } from './support/databases.js';
import { useLoopbackBotApi } from './support/loopback-bot-api.js';
import { ORIGINAL, writeOriginalUploads } from './support/original-rows.js';
import { useTestServer } from './support/test-server.js';

/** The original's upload folder, mounted as this service's UPLOAD_DIR. */
const oldUploads = makeTempDir('old-uploads');
let photos: Buffer[] = [];
beforeAll(async () => {
  photos = await writeOriginalUploads(oldUploads);
});
afterAll(() => fs.rmSync(oldUploads, { recursive: true, force: true }));

const bot = useLoopbackBotApi({ token: ORIGINAL.botToken, channelId: ORIGINAL.channelId });
// Only the Bot API's address: the bot token and channel come from the adopted config row.
const server = useTestServer(() => ({ MESSENGER_API_ROOT: bot.apiRoot, UPLOAD_DIR: oldUploads, BCRYPT_ROUNDS: '12' }), () => prepareAdoptedDatabase());
const api = server.api;

let adminToken: string;
let agentToken: string;

async function login(email: string, password: string) {
  return api.post('/api/auth/login', { json: { email, password } });
}

beforeAll(async () => {
  adminToken = (await login(ORIGINAL.admin.email, ORIGINAL.admin.password)).body.data.token;
  agentToken = (await login(ORIGINAL.agent.email, ORIGINAL.agent.password)).body.data.token;
  // The channel as the original left it: an album post and a photo post.
  bot.messagesIn(ORIGINAL.channelId).set(ORIGINAL.localPhotos.messageId, { kind: 'photo', album: true, content: 'Old caption: iPhone 13', markup: 'null' });
  bot.messagesIn(ORIGINAL.channelId).set(ORIGINAL.hostedPhoto.messageId, { kind: 'photo', album: false, content: 'Galaxy S22', markup: 'null' });
});
beforeEach(() => bot.reset());

/** The agent's socials as the original stored them (facebook .. youtube, custom {key, value}), as this service serves them (social_1 .. social_8 in that order, custom {name, url}). */
const ADOPTED_SOCIALS = {
  social_1: 'https://facebook.com/selam',
  social_2: 'https://x.com/selam',
  social_3: 'https://instagram.com/selam',
  social_4: 'https://linkedin.com/in/selam',
  social_5: 'https://t.me/selam',
  social_6: 'https://wa.me/251911000002',
  social_7: 'https://tiktok.com/@selam',
  social_8: 'https://youtube.com/@selam',
  website: 'https://selam.example',
  customSocials: [{ name: 'Blog', url: 'https://blog.selam.example' }],
};

describe('signing in', () => {
  // Three checks at the original's cost 12 run on the password worker at the lowest priority, which
  // a machine busy with other suites leaves little of its CPU: 14 to 28 s on two busy cores.
  it('takes the old passwords (bcrypt cost 12 hashes kept as they were), with the e-mail in any letter case', { timeout: 120_000 }, async () => {
    const admin = await login('owner@shop.example', ORIGINAL.admin.password);
    expect(admin.status).toBe(200);
    expect(admin.body.data.user).toEqual({ id: ORIGINAL.admin.id, email: 'owner@shop.example', name: 'Shop Owner', role: 'SUPER_ADMIN' });
    const agent = await login(ORIGINAL.agent.email, ORIGINAL.agent.password);
    expect(agent.body.data.user).toEqual({ id: ORIGINAL.agent.id, email: ORIGINAL.agent.email, name: 'Selam Tesfaye', role: 'AGENT' });
    expect((await login(ORIGINAL.agent.email, 'not-the-old-password')).status).toBe(401);
  });

  it('drops the pending reset code the original stored in plain text', async () => {
    const [row] = await server.db.select({ token: users.passwordResetToken, expires: users.passwordResetExpires }).from(users).where(eq(users.id, ORIGINAL.agent.id));
    expect(row).toEqual({ token: null, expires: null });
    const reset = await api.post('/api/auth/reset-password', { json: { email: ORIGINAL.agent.email, token: ORIGINAL.resetCode, newPassword: 'a-new-password-123' } });
    expect(reset.status).toBe(400);
    expect(reset.body.error).toBe('Invalid or expired reset code');
  });

  it("serves the agent's profile with the socials in social_1 .. social_8 and the custom socials as { name, url }", async () => {
    const response = await api.get('/api/auth/me', { token: agentToken });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: ORIGINAL.agent.id,
      profileImage: `${server.baseUrl}/uploads/1717000000000-avatar.webp`,
      ...ADOPTED_SOCIALS,
    });
    expect(JSON.stringify(response.body)).not.toMatch(/telegram|99887766|selam_t/i);
  });
});

describe('the storefront', () => {
  it('lists the available adopted listings, newest first, with their photos as they were stored', async () => {
    const response = await api.get('/api/public/listings');
    expect(response.status).toBe(200);
    expect(response.body.data.map((item: { id: string }) => item.id)).toEqual([ORIGINAL.hostedPhoto.id, ORIGINAL.localPhotos.id]);
    const [hosted, local] = response.body.data;
    expect(hosted).toMatchObject({ title: 'Galaxy S22', price: 480, inStock: true, stockQuantity: 2, hero: ORIGINAL.hostedPhoto.image, gallery: [ORIGINAL.hostedPhoto.image], description: '' });
    expect(local).toMatchObject({
      title: 'iPhone 13, 128GB',
      price: 650,
      inStock: true,
      stockQuantity: 1,
      brand: 'Apple',
      gallery: ORIGINAL.localPhotos.files.map((file) => `${server.baseUrl}/uploads/${file}`),
    });
  });

  it('serves the local photos from the old upload folder mounted as UPLOAD_DIR', async () => {
    for (const [index, file] of ORIGINAL.localPhotos.files.entries()) {
      const response = await fetch(`${server.baseUrl}/uploads/${file}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/webp');
      expect(Buffer.from(await response.arrayBuffer()).equals(photos[index]!)).toBe(true);
    }
  });

  it("shows an adopted listing's detail with its agent's socials, and counts the view on the old count", async () => {
    const response = await api.get(`/api/public/listings/${ORIGINAL.localPhotos.id}`);
    expect(response.status).toBe(200);
    expect(response.body.data.agent).toEqual({
      id: ORIGINAL.agent.id,
      name: 'Selam Tesfaye',
      phone: '+251911000002',
      profileImage: `${server.baseUrl}/uploads/1717000000000-avatar.webp`,
      ...ADOPTED_SOCIALS,
    });
    const detail = await api.get(`/api/listings/${ORIGINAL.localPhotos.id}`, { token: adminToken });
    expect(detail.body.data).toMatchObject({
      viewsCount: 9,
      inquiryClicks: 3,
      commissionPercent: 5.5,
      stockQuantity: 1,
      customTelegramCaption: 'Old caption: iPhone 13',
      attributes: { brand: 'Apple', condition: 'Used' },
      createdAt: '2026-06-20T10:00:00.123Z',
    });
  });

  it('counts the adopted listings in category counts, filter options, totals and commissions', async () => {
    const categories = await api.get('/api/categories');
    expect(categories.body.data).toEqual([
      expect.objectContaining({
        id: ORIGINAL.category.id,
        listingCount: 3,
        schemaRules: [
          { field: 'brand', type: 'string', required: true },
          { field: 'condition', type: 'select', required: false, options: ['New', 'Used'] },
        ],
      }),
    ]);
    const options = await api.get('/api/public/filter-options?category=Phones');
    expect(options.body.data.brand.options).toEqual(['Apple', 'Samsung']);
    expect(options.body.data.condition.options).toEqual(['New', 'Used']);
    const filtered = await api.get('/api/public/listings?brand=samsung');
    expect(filtered.body.data.map((item: { id: string }) => item.id)).toEqual([ORIGINAL.hostedPhoto.id]);
    const stats = await api.get('/api/commissions/asset-stats', { token: adminToken });
    expect(stats.body.data).toMatchObject({ totalAssets: 3, totalValue: 1430, totalStock: 3, AVAILABLE: 2, SOLD: 1, PENDING: 0, ARCHIVED: 0 });
    const summary = await api.get('/api/commissions/summary', { token: adminToken });
    expect(summary.body.data).toMatchObject({ totalListings: 2, totalCommissionPercent: 7.75, totalEstimatedRevenue: 65.75 });
    expect(await server.db.select().from(listingTotals).orderBy(listingTotals.status)).toEqual([
      { categoryId: ORIGINAL.category.id, status: 'AVAILABLE', listings: 2, value: 1130, stock: 3, commissioned: 1, commissionPercentSum: 5.5, commissionValue: 35.75 },
      { categoryId: ORIGINAL.category.id, status: 'SOLD', listings: 1, value: 300, stock: 0, commissioned: 1, commissionPercentSum: 10, commissionValue: 30 },
    ]);
  });

  it("serves the store settings under the spec's names, and never the keys it has no place for", async () => {
    const response = await api.get('/api/settings');
    expect(response.body.data).toEqual({
      siteName: 'Bros Technology',
      chatNumber: '+251911000009',
      callNumber1: '',
      callNumber2: '',
      messengerHandle: 'brostech',
      contactEmail: '',
      socialUrl1: 'https://facebook.com/brostech',
      socialUrl2: 'https://instagram.com/brostech',
      location: 'Bole, Addis Ababa',
      businessHours: '',
      shopGoogleMapUrl: '',
      shopMapAddress: '',
    });
    const kept = await server.db.select({ key: settings.key, value: settings.value }).from(settings).orderBy(settings.key);
    expect(kept.filter((row) => row.key === 'tiktokUrl' || row.key === 'miniAppUrl')).toEqual([
      { key: 'miniAppUrl', value: 'https://t.me/brostech_bot/app' },
      { key: 'tiktokUrl', value: 'https://tiktok.com/@brostech' },
    ]);
  });
});

describe('notifications and the channel history', () => {
  it("keeps the agent's notifications", async () => {
    const response = await api.get('/api/notifications', { token: agentToken });
    expect(response.body.data).toEqual([
      expect.objectContaining({ id: ORIGINAL.notification.id, type: 'LISTING_CREATED', isRead: false, data: { listingId: ORIGINAL.localPhotos.id }, createdAt: '2026-06-20T10:00:01.000Z' }),
    ]);
  });

  it('serves the channel config as MESSENGER with the bot token masked, and the logs as MESSENGER with their message ids', async () => {
    const config = await api.get('/api/syndication/config', { token: adminToken });
    expect(config.body.data).toEqual([expect.objectContaining({ platform: 'MESSENGER', channelId: ORIGINAL.channelId, isActive: true })]);
    expect(JSON.stringify(config.body)).not.toContain(ORIGINAL.botToken);
    const logs = await api.get('/api/syndication/logs', { token: adminToken });
    expect(logs.body.data.map((log: { platform: string; status: string; messageId: number | null }) => [log.platform, log.status, log.messageId])).toEqual([
      ['MESSENGER', 'SUCCESS', ORIGINAL.localPhotos.messageId],
      ['MESSENGER', 'SUCCESS', ORIGINAL.hostedPhoto.messageId],
      ['MESSENGER', 'FAILED', null],
    ]);
  });

  it('edits the existing channel post of an adopted listing when the listing is edited', async () => {
    const form = new FormData();
    form.append('price', '455');
    const response = await api.patch(`/api/listings/${ORIGINAL.hostedPhoto.id}`, { token: agentToken, form });
    expect(response.status).toBe(200);
    await settleDeferredWork();
    const [edit] = bot.callsTo('editMessageCaption');
    expect(edit).toMatchObject({ chatId: ORIGINAL.channelId, params: { message_id: ORIGINAL.hostedPhoto.messageId } });
    expect(edit!.caption).toContain('455.00');
    expect(bot.callsTo('sendPhoto')).toEqual([]);
    const entries = await server.db.select().from(syndicationLogs).where(eq(syndicationLogs.listingId, ORIGINAL.hostedPhoto.id)).orderBy(syndicationLogs.runAt);
    expect(entries.map((entry) => [entry.action, entry.status, entry.messageId, entry.platform])).toEqual([
      ['NEW_POST', 'SUCCESS', ORIGINAL.hostedPhoto.messageId, 'MESSENGER'],
      ['EDITED', 'SUCCESS', ORIGINAL.hostedPhoto.messageId, 'MESSENGER'],
    ]);
  });

  it('deletes the channel post of an adopted listing when the listing goes to the trash, and its files when it is deleted for good', async () => {
    const response = await api.delete(`/api/listings/${ORIGINAL.localPhotos.id}`, { token: agentToken });
    expect(response.status).toBe(200);
    await settleDeferredWork();
    expect(bot.callsTo('deleteMessages').map((call) => call.params.message_ids)).toEqual([[ORIGINAL.localPhotos.messageId]]);
    expect(bot.messagesIn(ORIGINAL.channelId).has(ORIGINAL.localPhotos.messageId)).toBe(false);
    for (const file of ORIGINAL.localPhotos.files) expect(fs.existsSync(path.join(oldUploads, file))).toBe(true);
    expect((await api.delete(`/api/listings/${ORIGINAL.localPhotos.id}?permanent=true`, { token: agentToken })).status).toBe(200);
    for (const file of ORIGINAL.localPhotos.files) expect(fs.existsSync(path.join(oldUploads, file))).toBe(false);
  });
});

describe('agent codes', () => {
  it('registers an agent with an unused, unexpired old code, once', async () => {
    const body = { email: 'abebe@shop.example', password: 'abebe-password-1', name: 'Abebe', phone: '+251911000003', agentCode: ORIGINAL.codes.unused };
    const first = await api.post('/api/auth/register', { json: body });
    expect(first.status).toBe(201);
    expect(first.body.data.user).toMatchObject({ email: 'abebe@shop.example', role: 'AGENT' });
    const again = await api.post('/api/auth/register', { json: { ...body, email: 'abebe2@shop.example' } });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('Invalid or expired agent code');
  });

  it('keeps used codes used and expired ones expired, and drops codes whose creator is gone', async () => {
    for (const code of [ORIGINAL.codes.used, ORIGINAL.codes.expired, ORIGINAL.codes.orphaned]) {
      const response = await api.post('/api/auth/verify-agent-code', { json: { code } });
      expect(response.body.data).toEqual({ valid: false, agentName: null, agentPhone: null });
    }
    const rows = await server.db
      .select({ code: agentCodes.code, isUsed: agentCodes.isUsed, maxUses: agentCodes.maxUses, useCount: agentCodes.useCount, usedById: agentCodes.usedById })
      .from(agentCodes)
      .orderBy(agentCodes.code);
    expect(rows).toEqual([
      { code: ORIGINAL.codes.unused, isUsed: true, maxUses: 1, useCount: 1, usedById: expect.any(String) },
      { code: ORIGINAL.codes.used, isUsed: true, maxUses: 1, useCount: 1, usedById: ORIGINAL.agent.id },
      { code: ORIGINAL.codes.expired, isUsed: false, maxUses: 1, useCount: 0, usedById: null },
    ]);
  });
});
