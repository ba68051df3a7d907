import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { syndicationLogs } from '../lib/db/schema.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { useLoopbackBotApi } from './support/loopback-bot-api.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

/**
 * A burst of new listings against the channel's flood control, with the Bot API client's usual
 * timeout: a post the Bot API accepted but answered after the client gave up on it would be sent
 * again, since the Bot API has no idempotency key (the short timeout of the failure tests in
 * syndication-reliability.test.ts would make that happen on a busy machine).
 */
const CRON_SECRET = 'flood-control-cron-secret';
const bot = useLoopbackBotApi({ token: '123456:flood-control-token', channelId: '@flood_control_shop' });
const server = useTestServer(() => ({ ...bot.serverEnv(), CRON_SECRET }));
const api = server.api;
const shop = useShop(server);

async function create(title: string): Promise<string> {
  const attributes = { brand: 'Apple', model: 'iPhone 13', storage: '128GB' };
  const response = await api.post('/api/listings', { token: shop.agent.token, json: { title, price: 100, categoryId: shop.category.id, attributes } });
  expect(response.status).toBe(201);
  return response.body.data.id;
}

describe('a burst against flood control', () => {
  it('posts all of 60 listings created at once, none twice, against a channel that takes 20 messages per 3 seconds', async () => {
    bot.limitRate(20, 3000);
    const ids = await Promise.all(Array.from({ length: 60 }, (_, index) => create(`Burst ${index}`)));
    await settleDeferredWork();
    for (let round = 0; round < 5; round += 1) {
      const pendingOrDue = await server.db
        .select({ id: syndicationLogs.id })
        .from(syndicationLogs)
        .where(sql`${syndicationLogs.listingId} in ${ids} and ${syndicationLogs.retryAt} is not null`);
      if (pendingOrDue.length === 0) break;
      // Every scheduled retry due now, as time passing would make it; then the scheduler's sweep.
      await server.db.update(syndicationLogs).set({ retryAt: sql`now() - interval '1 second'` }).where(sql`${syndicationLogs.retryAt} is not null`);
      await api.get('/api/cron/sweep', { token: CRON_SECRET });
    }
    const posted = bot.callsTo('sendMessage').filter((call) => call.result !== undefined).map((call) => call.text);
    for (let index = 0; index < 60; index += 1) expect(posted.filter((text) => text?.includes(`Burst ${index}<`)), `Burst ${index}`).toHaveLength(1);
  }, 120_000);
});
