import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agentCodes, idempotencyKeys, listings, rateLimits } from '../lib/db/schema.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { imageForm, smallPng } from './support/images.js';
import { useLoopbackBotApi } from './support/loopback-bot-api.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const BOT_TOKEN = '123456:idempotency-token';
const CRON_SECRET = 'idempotency-cron-secret';
const bot = useLoopbackBotApi({ token: BOT_TOKEN, channelId: '@once' });
const server = useTestServer(() => ({ ...bot.serverEnv(), CRON_SECRET }));
const api = server.api;
const shop = useShop(server);

const listing = (title: string) => ({ title, price: 100, categoryId: shop.category.id, attributes: { brand: 'Apple', model: 'X', storage: '64GB' } });
const withKey = (key: string) => ({ 'idempotency-key': key });

async function listingsTitled(title: string) {
  return server.db.select().from(listings).where(eq(listings.title, title));
}

describe('Idempotency-Key on creating requests', () => {
  it('answers a repeat of the same create with the first answer, creating and posting nothing more', async () => {
    bot.reset();
    const first = await api.post('/api/listings', { token: shop.agent.token, json: listing('Once only'), headers: withKey('create-once-1') });
    const again = await api.post('/api/listings', { token: shop.agent.token, json: listing('Once only'), headers: withKey('create-once-1') });
    await settleDeferredWork();
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await listingsTitled('Once only')).toHaveLength(1);
    expect(bot.callsTo('sendMessage')).toHaveLength(1);
  });

  it('creates one listing for the same multipart create sent twice at once: the other answer is the first or a 409', async () => {
    const photo = await smallPng();
    const send = () =>
      api.post('/api/listings', {
        token: shop.agent.token,
        form: imageForm({ title: 'Sent twice at once', price: '5', categoryId: shop.category.id, attributes: JSON.stringify({ brand: 'A', model: 'B', storage: '64GB' }) }, [photo]),
        headers: withKey('concurrent-1'),
      });
    const answers = await Promise.all([send(), send()]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect([['201', '201'], ['201', '409']].map(String)).toContain(statuses.map(String).join(','));
    expect(await listingsTitled('Sent twice at once')).toHaveLength(1);
  });

  it('refuses the same key with a different request with 422, creating nothing', async () => {
    await api.post('/api/listings', { token: shop.agent.token, json: listing('Original'), headers: withKey('reused-1') });
    const other = await api.post('/api/listings', { token: shop.agent.token, json: listing('Something else'), headers: withKey('reused-1') });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ success: false, code: 'IDEMPOTENCY_KEY_REUSED', error: 'Idempotency-Key reused with a different request' });
    expect(await listingsTitled('Something else')).toHaveLength(0);
  });

  it('scopes keys to the caller: another user with the same key creates their own', async () => {
    const other = shop.otherAgent;
    await api.post('/api/listings', { token: shop.agent.token, json: listing('Mine'), headers: withKey('shared-key') });
    const theirs = await api.post('/api/listings', { token: other.token, json: { ...listing('Theirs'), agentId: other.id }, headers: withKey('shared-key') });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await listingsTitled('Mine')).toHaveLength(1);
    expect(await listingsTitled('Theirs')).toHaveLength(1);
  });

  it('keeps a refusal as the first answer, and refuses a malformed key with 400', async () => {
    const bad = { ...listing('Refused'), categoryId: '5b0e5b38-5f6b-4f55-9c55-2d0b7c4e2a11' };
    const first = await api.post('/api/listings', { token: shop.agent.token, json: bad, headers: withKey('refused-1') });
    const again = await api.post('/api/listings', { token: shop.agent.token, json: bad, headers: withKey('refused-1') });
    expect(first.status).toBe(404);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const malformed = await api.post('/api/listings', { token: shop.agent.token, json: listing('Malformed key'), headers: withKey('x'.repeat(256)) });
    expect(malformed.status).toBe(400);
    expect(malformed.body.details).toEqual([{ field: 'Idempotency-Key', message: 'must be 1 to 255 printable characters' }]);
    expect(await listingsTitled('Malformed key')).toHaveLength(0);
  });

  it('works on the other creating requests too (an agent code)', async () => {
    const { admin } = shop;
    const body = { name: 'Invited Once' };
    const first = await api.post('/api/auth/agent-codes', { token: admin.token, json: body, headers: withKey('code-1') });
    const again = await api.post('/api/auth/agent-codes', { token: admin.token, json: body, headers: withKey('code-1') });
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await server.db.select().from(agentCodes).where(eq(agentCodes.agentName, 'Invited Once'))).toHaveLength(1);
  });

  it('has expired keys removed by the sweeper after 24 hours', async () => {
    await api.post('/api/listings', { token: shop.agent.token, json: listing('Old key'), headers: withKey('old-key') });
    await server.db.update(idempotencyKeys).set({ createdAt: sql`now() - interval '25 hours'` }).where(eq(idempotencyKeys.key, 'old-key'));
    const swept = await api.get('/api/cron/sweep', { token: CRON_SECRET });
    expect(swept.body.data.idempotencyKeysRemoved).toBeGreaterThanOrEqual(1);
    expect(await server.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'old-key'))).toEqual([]);
  });

  it('never keeps a 429 under its key: a trigger refused by the posting limit runs anew when retried with that key later', async () => {
    const created = await api.post('/api/listings', { token: shop.agent.token, json: listing('Posted by hand') });
    const listingId: string = created.body.data.id;
    await settleDeferredWork();
    bot.reset();
    const trigger = (key: string) => api.post(`/api/syndication/trigger/${listingId}`, { token: shop.agent.token, headers: withKey(key) });
    const keys = Array.from({ length: 6 }, (_, index) => `trigger-${index}`);
    const answers = [];
    for (const key of keys) answers.push(await trigger(key));
    expect(answers.slice(0, 5).map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    const refused = answers[5]!;
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, code: 'RATE_LIMITED', error: 'Too many requests, try again later' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const kept = await server.db.select({ key: idempotencyKeys.key, status: idempotencyKeys.status }).from(idempotencyKeys).where(eq(idempotencyKeys.scope, shop.agent.id));
    expect(kept.filter((row) => row.key.startsWith('trigger-')).sort((a, b) => a.key.localeCompare(b.key))).toEqual(keys.slice(0, 5).map((key) => ({ key, status: 200 })));

    await server.db.update(rateLimits).set({ resetAt: sql`now() - interval '1 second'` }).where(eq(rateLimits.key, `channel-post-listing:${listingId}`));
    const retried = await trigger('trigger-5');
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.body).toEqual({ success: true, data: { listingId, messageId: expect.any(Number), message: 'Listing posted to the channel' } });
    expect(bot.callsTo('sendMessage')).toHaveLength(6);
    const [retriedKey] = await server.db.select({ status: idempotencyKeys.status }).from(idempotencyKeys).where(eq(idempotencyKeys.key, 'trigger-5'));
    expect(retriedKey?.status).toBe(200);
  });
});
