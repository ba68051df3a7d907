import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { syndicationLogs } from '../lib/db/schema.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { buildListing } from './support/catalog-factories.js';
import { useLoopbackBotApi } from './support/loopback-bot-api.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';
import { expectAdministratorsOnly } from './support/refusals.js';

const BOT_TOKEN = '123456:health-token';
const CHANNEL = '@healthy_shop';
const CRON_SECRET = 'health-cron-secret';
const bot = useLoopbackBotApi({ token: BOT_TOKEN, channelId: CHANNEL });
const server = useTestServer(() => ({ ...bot.serverEnv(), MESSENGER_TIMEOUT_MS: '500', CRON_SECRET }));
const api = server.api;
const shop = useShop(server);

const ATTRIBUTES = { brand: 'Apple', model: 'iPhone 13', storage: '128GB' };
const NOTHING_YET = {
  pending: 0,
  failedRetrying: 0,
  failedForGood24h: 0,
  succeeded24h: 0,
  oldestPendingSeconds: null,
  lastSuccessAt: null,
  lastFailureAt: null,
  lastRateLimitedAt: null,
  lastRetryAfterSeconds: null,
};

beforeEach(async () => {
  bot.reset();
  await server.db.delete(syndicationLogs);
});

/** Creates a listing, which posts it to the channel after the answer, and waits for that post. */
async function createPosted(title: string): Promise<string> {
  const response = await api.post('/api/listings', { token: shop.agent.token, json: { title, price: 100, categoryId: shop.category.id, attributes: ATTRIBUTES } });
  expect(response.status).toBe(201);
  await settleDeferredWork();
  return response.body.data.id;
}

async function entryOf(listingId: string) {
  const [row] = await server.db.select().from(syndicationLogs).where(eq(syndicationLogs.listingId, listingId)).orderBy(syndicationLogs.attempt);
  return row!;
}

async function health() {
  const response = await api.get('/api/syndication/health', { token: shop.admin.token });
  expect(response.status).toBe(200);
  return response.body.data;
}

describe('GET /api/syndication/health', () => {
  it('answers zeros and nulls for an empty posting log', async () => {
    expect(await health()).toEqual(NOTHING_YET);
  });

  it('counts a success, a rate limit and a failure through the Bot API, each with its time', async () => {
    const posted = await createPosted('Posted fine');
    bot.fail('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 42', parameters: { retry_after: 42 } }, 1);
    const limited = await createPosted('Hit flood control');
    bot.fail('sendMessage', { error_code: 400, description: 'Bad Request: chat not found' }, 1);
    const failed = await createPosted('Channel gone');
    expect(bot.callsTo('sendMessage').map((call) => call.result !== undefined)).toEqual([true, false, false]);

    const [success, rateLimited, failure] = [await entryOf(posted), await entryOf(limited), await entryOf(failed)];
    expect(success).toMatchObject({ status: 'SUCCESS', retryAfterSeconds: null });
    expect(rateLimited).toMatchObject({ status: 'FAILED', retryAfterSeconds: 42, retryAt: expect.any(Date) });
    expect(failure).toMatchObject({ status: 'FAILED', retryAfterSeconds: null, retryAt: null });
    expect(await health()).toEqual({
      ...NOTHING_YET,
      failedRetrying: 1,
      failedForGood24h: 1,
      succeeded24h: 1,
      lastSuccessAt: success.runAt.toISOString(),
      lastFailureAt: failure.runAt.toISOString(),
      lastRateLimitedAt: rateLimited.runAt.toISOString(),
      lastRetryAfterSeconds: 42,
    });
  });

  it('counts a failure the sweeper tried again as retried, not failed for good', async () => {
    bot.fail('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 30', parameters: { retry_after: 30 } }, 1);
    const limited = await createPosted('Retried later');
    await server.db.update(syndicationLogs).set({ retryAt: sql`now() - interval '1 second'` }).where(eq(syndicationLogs.listingId, limited));
    expect((await api.get('/api/cron/sweep', { token: CRON_SECRET })).status).toBe(200);
    await settleDeferredWork();
    const rows = await server.db.select().from(syndicationLogs).where(eq(syndicationLogs.listingId, limited)).orderBy(syndicationLogs.attempt);
    expect(rows.map((row) => [row.attempt, row.status])).toEqual([
      [1, 'FAILED'],
      [2, 'SUCCESS'],
    ]);
    expect(await health()).toMatchObject({ failedRetrying: 0, failedForGood24h: 0, succeeded24h: 1, lastRetryAfterSeconds: 30 });
  });

  it('counts waiting entries and the age of the oldest, and leaves out what is older than a day', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id });
    const minutesAgo = (minutes: number) => sql`now() - make_interval(mins => ${minutes})`;
    await server.db.insert(syndicationLogs).values([
      { listingId: listing.id, platform: 'MESSENGER', status: 'PENDING', channelInfo: CHANNEL, runAt: minutesAgo(2) },
      { listingId: listing.id, platform: 'MESSENGER', status: 'PENDING', channelInfo: CHANNEL, runAt: minutesAgo(1) },
      { listingId: listing.id, platform: 'MESSENGER', status: 'SUCCESS', channelInfo: CHANNEL, runAt: minutesAgo(25 * 60) },
      { listingId: listing.id, platform: 'MESSENGER', status: 'FAILED', channelInfo: CHANNEL, runAt: minutesAgo(26 * 60), attempt: 5 },
    ]);
    const answer = await health();
    expect(answer).toMatchObject({ pending: 2, succeeded24h: 0, failedForGood24h: 0, failedRetrying: 0 });
    expect(answer.oldestPendingSeconds).toBeGreaterThanOrEqual(119);
    expect(answer.oldestPendingSeconds).toBeLessThan(180);
    expect(Date.parse(answer.lastSuccessAt)).toBeLessThan(Date.now() - 24 * 60 * 60 * 1000);
    expect(Date.parse(answer.lastFailureAt)).toBeLessThan(Date.parse(answer.lastSuccessAt));
  });

  it('is for administrators only: an agent is 403, no token 401', async () => {
    await expectAdministratorsOnly(api, '/api/syndication/health', shop.agent.token);
  });
});
