import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rateLimits } from '../lib/db/schema.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { useTestServer } from './support/test-server.js';

/**
 * The fixed-window counter, exercised through `POST /api/auth/verify-agent-code` (20 per 15
 * minutes per client address). A trusted proxy lets each test speak from its own address.
 */
const server = useTestServer({ TRUST_PROXY: '1' });
const api = server.api;
let nextAddress = 1;

function newAddress(): string {
  nextAddress += 1;
  return `203.0.113.${nextAddress}`;
}

function verifyFrom(address: string) {
  return api.post('/api/auth/verify-agent-code', { json: { code: '000000' }, headers: { 'x-forwarded-for': `10.0.0.1, ${address}` } });
}

async function counterOf(address: string) {
  const [row] = await server.db.select().from(rateLimits).where(eq(rateLimits.key, `agent-code-checks:${address}`));
  return row;
}

describe('the fixed window', () => {
  it('lets the limit through, then answers 429 with Retry-After in seconds', async () => {
    const address = newAddress();
    for (let i = 0; i < 20; i += 1) expect((await verifyFrom(address)).status).toBe(200);
    const refused = await verifyFrom(address);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, code: 'RATE_LIMITED', error: 'Too many requests, try again later' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect((await counterOf(address))?.count).toBe(21);
  });

  it('counts each client address on its own', async () => {
    const blocked = newAddress();
    for (let i = 0; i < 21; i += 1) await verifyFrom(blocked);
    expect((await verifyFrom(blocked)).status).toBe(429);
    const other = newAddress();
    expect((await verifyFrom(other)).status).toBe(200);
    expect((await counterOf(other))?.count).toBe(1);
  });

  it('never lets more than the limit through under concurrent requests', async () => {
    const address = newAddress();
    const responses = await Promise.all(Array.from({ length: 30 }, () => verifyFrom(address)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    expect((await counterOf(address))?.count).toBe(30);
  });

  it('opens a new window once the old one has ended', async () => {
    const address = newAddress();
    for (let i = 0; i < 21; i += 1) await verifyFrom(address);
    expect((await verifyFrom(address)).status).toBe(429);
    await server.db
      .update(rateLimits)
      .set({ resetAt: sql`now() - interval '1 second'` })
      .where(eq(rateLimits.key, `agent-code-checks:${address}`));
    expect((await verifyFrom(address)).status).toBe(200);
    const counter = await counterOf(address);
    expect(counter?.count).toBe(1);
    expect(counter!.resetAt.getTime()).toBeGreaterThan(Date.now() + 14 * 60 * 1000);
  });

  it('sweeps out counters whose window has ended when a window opens', async () => {
    await server.db.insert(rateLimits).values([
      { key: 'stale:one', count: 3, resetAt: sql`now() - interval '1 minute'` },
      { key: 'live:one', count: 3, resetAt: sql`now() + interval '1 minute'` },
    ]);
    const address = newAddress();
    expect((await verifyFrom(address)).status).toBe(200);
    await settleDeferredWork();
    const keys = (await server.db.select({ key: rateLimits.key }).from(rateLimits)).map((row) => row.key);
    expect(keys).not.toContain('stale:one');
    expect(keys).toContain('live:one');
    expect(keys).toContain(`agent-code-checks:${address}`);
  });
});

describe('the client address', () => {
  it('uses the X-Forwarded-For entry the trusted proxy appended, never one the client wrote before it', async () => {
    const address = newAddress();
    await api.post('/api/auth/verify-agent-code', { json: { code: '123456' }, headers: { 'x-forwarded-for': `198.51.100.7, ${address}` } });
    expect((await counterOf(address))?.count).toBe(1);
    expect(await counterOf('198.51.100.7')).toBeUndefined();
  });
});
