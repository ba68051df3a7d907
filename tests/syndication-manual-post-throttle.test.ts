import { describe, expect, it } from 'vitest';
import { buildListing } from './support/catalog-factories.js';
import { useLoopbackBotApi } from './support/loopback-bot-api.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const BOT_TOKEN = '123456:channel-abuse-token';
const bot = useLoopbackBotApi({ token: BOT_TOKEN, channelId: '@abuse' });
const server = useTestServer(() => bot.serverEnv());
const api = server.api;
const shop = useShop(server);

describe('posting to the channel by hand is throttled', () => {
  it('posts one listing at most 5 times a minute: 30 concurrent triggers give 5 posts and 25 answers of 429', async () => {
    const { agent } = shop;
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: agent.id });
    bot.reset();
    const responses = await Promise.all(Array.from({ length: 30 }, () => api.post(`/api/syndication/trigger/${listing.id}`, { token: agent.token })));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(25).fill(429)]);
    const refused = responses.find((response) => response.status === 429)!;
    expect(refused.body).toEqual({ success: false, code: 'RATE_LIMITED', error: 'Too many requests, try again later' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(bot.calls.filter((call) => call.method === 'sendMessage')).toHaveLength(5);
  });

  it('lets one agent post at most 30 times a minute across listings; an administrator is not held to it', async () => {
    // Not the first test's agent: the limit counts what an agent posted in the last minute.
    const agent = shop.otherAgent;
    const own = await Promise.all(Array.from({ length: 31 }, () => buildListing(server.db, { categoryId: shop.category.id, agentId: agent.id })));
    bot.reset();
    const statuses = [];
    for (const listing of own) statuses.push((await api.post(`/api/syndication/trigger/${listing.id}`, { token: agent.token })).status);
    expect(statuses).toEqual([...Array(30).fill(200), 429]);
    expect((await api.post(`/api/syndication/trigger/${own[30]!.id}`, { token: shop.admin.token })).status).toBe(200);
    expect(bot.calls.filter((call) => call.method === 'sendMessage')).toHaveLength(31);
  });
});
