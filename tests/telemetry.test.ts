import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { buildListing } from './support/catalog-factories.js';
import { useLoopbackBotApi } from './support/loopback-bot-api.js';
import { useLoopbackOtlp, type ReceivedSpan } from './support/loopback-otlp.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const BOT_TOKEN = '123456:telemetry-token';
const CHANNEL = '@traced_shop';
const collector = useLoopbackOtlp();
const bot = useLoopbackBotApi({ token: BOT_TOKEN, channelId: CHANNEL });
const server = useTestServer(() => ({ ...bot.serverEnv(), ...collector.serverEnv() }));
const api = server.api;
const shop = useShop(server);
let listingId: string;

beforeAll(async () => {
  listingId = (await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.admin.id, title: 'Traced phone' })).id;
});

/** The spans of the request whose span is named `name`, once its export has arrived. */
async function traceOf(name: string): Promise<{ root: ReceivedSpan; spans: ReceivedSpan[] }> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    await settleDeferredWork();
    const root = collector.spans.find((span) => span.name === name);
    if (root) return { root, spans: collector.spans.filter((span) => span.traceId === root.traceId) };
    await sleep(50);
  }
  throw new Error(`No span named "${name}" arrived; received: ${collector.spans.map((span) => span.name).join(', ')}`);
}

describe('OpenTelemetry with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  it('exports one request as a span tree: the request, its statements and its Bot API calls', async () => {
    const response = await api.post(`/api/syndication/trigger/${listingId}`, { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(bot.callsTo('sendMessage')).toHaveLength(1);

    // The function's own path names the span: one name for every listing's trigger.
    const { root, spans } = await traceOf('POST /api/syndication/trigger/[listingId]');
    expect(root.parentSpanId).toBe('');
    expect(root.serviceName).toBe('marketplace-listing-api');
    expect(root.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.path': '/api/syndication/trigger/[listingId]',
      'http.response.status_code': 200,
      'http.request.id': response.headers.get('x-request-id'),
    });
    const children = spans.filter((span) => span.parentSpanId === root.spanId);
    const statements = children.filter((span) => span.name.startsWith('db '));
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) expect(statement.attributes).toMatchObject({ 'db.system.name': 'postgresql', 'db.query.text': expect.any(String) });
    expect(statements.map((span) => span.attributes['db.operation.name'])).toEqual(expect.arrayContaining(['SELECT', 'INSERT', 'UPDATE']));
    expect(children.find((span) => span.name === 'Bot API sendMessage')?.attributes).toMatchObject({ 'rpc.method': 'sendMessage' });
    // Every span of the trace hangs from the request: none is orphaned or belongs to another request.
    const ids = new Set(spans.map((span) => span.spanId));
    for (const span of spans) if (span !== root) expect(ids.has(span.parentSpanId), span.name).toBe(true);
    expect(collector.refused).toBe(0);
  });

  it("joins the caller's trace when the request carries a traceparent", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpanId = '00f067aa0ba902b7';
    const response = await api.get('/api/settings', { headers: { traceparent: `00-${traceId}-${callerSpanId}-01` } });
    expect(response.status).toBe(200);
    const { root, spans } = await traceOf('GET /api/settings/index');
    expect(root).toMatchObject({ traceId, parentSpanId: callerSpanId });
    expect(spans.some((span) => span.parentSpanId === root.spanId && span.name.startsWith('db '))).toBe(true);
  });

  it('never exports a statement\'s parameters: the bot token and passwords stay out of the spans', async () => {
    await api.post('/api/auth/login', { json: { email: shop.admin.email, password: shop.admin.password } });
    const { spans } = await traceOf('POST /api/auth/login');
    const exported = JSON.stringify(collector.spans);
    expect(spans.some((span) => span.name.startsWith('db '))).toBe(true);
    expect(exported).not.toContain(shop.admin.password);
    expect(exported).not.toContain(BOT_TOKEN);
  });
});
