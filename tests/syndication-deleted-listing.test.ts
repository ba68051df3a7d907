import { describe, expect, it } from 'vitest';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { buildCategory } from './support/catalog-factories.js';
import { buildAgent } from './support/factories.js';
import { useLoopbackBotApi } from './support/loopback-bot-api.js';
import { useTestServer } from './support/test-server.js';

const BOT_TOKEN = '123456:delete-race-token';
const CHANNEL = '@delete_race';
const bot = useLoopbackBotApi({ token: BOT_TOKEN, channelId: CHANNEL });
const server = useTestServer(() => bot.serverEnv());
const api = server.api;

describe('a listing deleted while its channel post is on the way', () => {
  it('has its post taken down once it lands: 10 creates each deleted 50 ms later leave an empty channel', async () => {
    const agent = await buildAgent(server.db);
    const categoryId = (await buildCategory(server.db)).id;
    bot.delay('sendMessage', 500);
    const ids = await Promise.all(
      Array.from({ length: 10 }, async (_, index) => {
        const created = await api.post('/api/listings', {
          token: agent.token,
          json: { title: `Racing ${index}`, price: 10, categoryId, attributes: { brand: 'Apple', model: 'X', storage: '64GB' } },
        });
        expect(created.status).toBe(201);
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect((await api.delete(`/api/listings/${created.body.data.id}`, { token: agent.token })).status).toBe(200);
        return created.body.data.id as string;
      }),
    );
    await settleDeferredWork();
    expect(ids).toHaveLength(10);
    expect(bot.callsTo('sendMessage')).toHaveLength(10);
    expect([...bot.messagesIn(CHANNEL).keys()]).toEqual([]);
  });
});
