import { and, eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notifications, syndicationLogs } from '../lib/db/schema.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { sweepChannelPosts } from '../lib/syndication/sweeper.js';
import { buildListing } from './support/catalog-factories.js';
import { useLoopbackBotApi } from './support/loopback-bot-api.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const BOT_TOKEN = '123456:reliability-token';
const CHANNEL = '@reliable_shop';
const CRON_SECRET = 'reliability-cron-secret';
const bot = useLoopbackBotApi({ token: BOT_TOKEN, channelId: CHANNEL });
const server = useTestServer(() => ({ ...bot.serverEnv(), MESSENGER_TIMEOUT_MS: '500', CRON_SECRET }));
const api = server.api;
const shop = useShop(server);

beforeEach(() => bot.reset());

const ATTRIBUTES = { brand: 'Apple', model: 'iPhone 13', storage: '128GB' };

async function create(title: string): Promise<string> {
  const response = await api.post('/api/listings', { token: shop.agent.token, json: { title, price: 100, categoryId: shop.category.id, attributes: ATTRIBUTES } });
  expect(response.status).toBe(201);
  return response.body.data.id;
}

async function entriesOf(listingId: string) {
  return server.db.select().from(syndicationLogs).where(eq(syndicationLogs.listingId, listingId)).orderBy(syndicationLogs.attempt, syndicationLogs.runAt);
}

/** Makes every scheduled retry due now, as time passing would. */
async function retriesAreDue(): Promise<void> {
  await server.db.update(syndicationLogs).set({ retryAt: sql`now() - interval '1 second'` }).where(sql`${syndicationLogs.retryAt} is not null`);
}

const sweep = () => api.get('/api/cron/sweep', { token: CRON_SECRET });

describe('posting against the Bot API on its bad days', () => {
  it('waits out a 429 whose retry_after fits in the invocation, then posts', async () => {
    bot.fail('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } }, 1);
    const id = await create('Rate limited once');
    await settleDeferredWork();
    expect(bot.callsTo('sendMessage')).toHaveLength(2);
    expect(await entriesOf(id)).toMatchObject([{ status: 'SUCCESS', attempt: 1, retryAt: null }]);
  });

  it('tries a 500 once more within the invocation, and posts when the Bot API is back', async () => {
    bot.fail('sendMessage', { error_code: 500, description: 'Internal Server Error' }, 1);
    const id = await create('Server error once');
    await settleDeferredWork();
    expect(bot.callsTo('sendMessage')).toHaveLength(2);
    expect(await entriesOf(id)).toMatchObject([{ status: 'SUCCESS' }]);
  });

  it('leaves a 429 with a long retry_after to the sweeper, at the time the Bot API named, which then posts it as attempt 2', async () => {
    bot.fail('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 90', parameters: { retry_after: 90 } }, 1);
    const before = Date.now();
    const id = await create('Rate limited long');
    await settleDeferredWork();
    const [failed] = await entriesOf(id);
    expect(failed).toMatchObject({ status: 'FAILED', attempt: 1, errorMessage: 'Bot API sendMessage failed (429): Too Many Requests: retry after 90' });
    expect(failed!.retryAt!.getTime()).toBeGreaterThanOrEqual(before + 90_000);

    await retriesAreDue();
    const swept = await sweep();
    expect(swept.body.data.channelPosts).toEqual({ resumed: 0, retried: 1 });
    expect(await entriesOf(id)).toMatchObject([
      { status: 'FAILED', attempt: 1, retryAt: null },
      { status: 'SUCCESS', attempt: 2 },
    ]);
    expect(bot.callsTo('sendMessage')).toHaveLength(2);
  });

  it('never sends again on its own a post whose answer did not come in time, and sends it when an administrator retries it', async () => {
    // The Bot API takes the post and answers after the service stopped waiting (0.5 s).
    bot.delay('sendMessage', 1500);
    const id = await create('Slow answer');
    await settleDeferredWork();
    const [unknown] = await entriesOf(id);
    expect(unknown).toMatchObject({
      status: 'FAILED',
      attempt: 1,
      retryAt: null,
      errorMessage:
        'Outcome unknown: Bot API sendMessage timed out after 0.5 s. The post may be on the channel, so it is not sent again on its own: check the channel, and retry this entry if the post is missing',
    });
    const postsOf = (title: string) => [...bot.messagesIn(CHANNEL).values()].filter((message) => message.content.includes(title));
    await vi.waitFor(() => expect(postsOf('Slow answer')).toHaveLength(1), { timeout: 10_000 });

    await retriesAreDue();
    expect((await sweep()).status).toBe(200);
    expect(await entriesOf(id)).toMatchObject([{ status: 'FAILED', attempt: 1 }]);
    expect(bot.callsTo('sendMessage').filter((call) => call.text?.includes('Slow answer'))).toHaveLength(1);

    bot.reset();
    const retried = await api.post(`/api/syndication/retry/${unknown!.id}`, { token: shop.admin.token });
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ listingId: id, status: 'SUCCESS', action: 'NEW_POST' });
    expect(await entriesOf(id)).toMatchObject([
      { status: 'FAILED', attempt: 1 },
      { status: 'SUCCESS', attempt: 2 },
    ]);
    expect(postsOf('Slow answer')).toHaveLength(2);
  });

  it('retries on its own an edit whose answer did not come in time: editing again cannot post twice', async () => {
    const id = await create('Slow edit');
    await settleDeferredWork();
    bot.hang('editMessageText');
    expect((await api.patch(`/api/listings/${id}`, { token: shop.agent.token, json: { price: 90 } })).status).toBe(200);
    await settleDeferredWork();
    const [, edit] = await entriesOf(id);
    expect(edit).toMatchObject({ action: 'EDITED', status: 'FAILED', errorMessage: 'Bot API editMessageText timed out after 0.5 s', retryAt: expect.any(Date) });

    bot.reset();
    await retriesAreDue();
    expect((await sweep()).status).toBe(200);
    expect((await entriesOf(id)).filter((entry) => entry.action === 'EDITED').map((entry) => [entry.attempt, entry.status])).toEqual([
      [1, 'FAILED'],
      [2, 'SUCCESS'],
    ]);
    expect(bot.callsTo('sendMessage')).toEqual([]);
  });

  it('fails at once, for good, when the bot was removed from the channel (403), and tells the agent', async () => {
    bot.fail('sendMessage', { error_code: 403, description: 'Forbidden: bot is not a member of the channel chat' });
    const id = await create('Bot removed');
    await settleDeferredWork();
    expect(bot.callsTo('sendMessage')).toHaveLength(1);
    expect(await entriesOf(id)).toMatchObject([{ status: 'FAILED', retryAt: null, errorMessage: 'Bot API sendMessage failed (403): Forbidden: bot is not a member of the channel chat' }]);
    const notices = await server.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, shop.agent.id), eq(notifications.type, 'SYNDICATION_FAILED'), sql`${notifications.data} ->> 'listingId' = ${id}`));
    expect(notices).toHaveLength(1);
  });

  it('gives up after five attempts in all', async () => {
    bot.fail('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 10', parameters: { retry_after: 10 } });
    const id = await create('Always failing');
    await settleDeferredWork();
    for (let round = 0; round < 5; round += 1) {
      await retriesAreDue();
      await sweep();
    }
    const entries = await entriesOf(id);
    expect(entries.map((entry) => [entry.attempt, entry.status, entry.retryAt === null])).toEqual([
      [1, 'FAILED', true],
      [2, 'FAILED', true],
      [3, 'FAILED', true],
      [4, 'FAILED', true],
      [5, 'FAILED', true],
    ]);
  });
});

describe('editing a post that is gone', () => {
  it('posts the listing anew when its post was removed from the channel, and records the new post', async () => {
    const id = await create('Removed by hand');
    await settleDeferredWork();
    const [posted] = await entriesOf(id);
    bot.messagesIn(CHANNEL).delete(posted!.messageId!);
    bot.reset();
    expect((await api.patch(`/api/listings/${id}`, { token: shop.agent.token, json: { price: 90 } })).status).toBe(200);
    await settleDeferredWork();
    expect(bot.calls.map((call) => call.method)).toEqual(['editMessageText', 'sendMessage']);
    const newId = bot.callsTo('sendMessage')[0]!.result.message_id as number;
    const entries = await entriesOf(id);
    expect(entries.at(-1)).toMatchObject({ action: 'EDITED', status: 'SUCCESS', messageId: newId, postMessageIds: [newId] });
    expect(bot.messagesIn(CHANNEL).has(newId)).toBe(true);
  });
});

describe('the sweeper', () => {
  it('finishes an entry left PENDING by an invocation that died, exactly once, even with two sweeps at once', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Left behind' });
    await server.db.insert(syndicationLogs).values({
      listingId: listing.id,
      platform: 'MESSENGER',
      status: 'PENDING',
      action: 'NEW_POST',
      channelInfo: CHANNEL,
      runAt: sql`now() - interval '5 minutes'`,
    });
    const due = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: `Due ${index}` }).then((row) =>
          server.db.insert(syndicationLogs).values({ listingId: row.id, platform: 'MESSENGER', status: 'FAILED', channelInfo: CHANNEL, retryAt: sql`now() - interval '1 second'` }),
        ),
      ),
    );
    expect(due).toHaveLength(6);
    const [first, second] = await Promise.all([sweepChannelPosts(), sweepChannelPosts()]);
    expect(first!.resumed + second!.resumed).toBe(1);
    expect(first!.retried + second!.retried).toBe(6);
    expect(bot.callsTo('sendMessage')).toHaveLength(7);
    expect(await entriesOf(listing.id)).toMatchObject([{ status: 'SUCCESS' }]);
  });

  it('answers only the scheduler', async () => {
    for (const token of [undefined, shop.admin.token]) {
      const refused = await api.get('/api/cron/sweep', { token });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Only the scheduler may call this' });
    }
    expect((await sweep()).status).toBe(200);
  });
});
