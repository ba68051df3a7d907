import crypto from 'node:crypto';
import { eq, like, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rateLimits } from '../lib/db/schema.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { expectTooMany } from './support/refusals.js';
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

describe('the client address', () => {
  it('counts every address of one IPv6 /64 as one address', async () => {
    const network = '2001:db8:5:6::/64';
    const statuses = [];
    for (let host = 1; host <= 20; host += 1) statuses.push((await verifyFrom(`2001:db8:5:6::${host.toString(16)}`)).status);
    expect(statuses).toEqual(Array(20).fill(200));
    expectTooMany(await verifyFrom('2001:db8:5:6:ffff:ffff:ffff:ffff'));
    expect((await counterOf(network))?.count).toBe(21);
    expect((await verifyFrom('2001:db8:5:7::1')).status).toBe(200);
  });
});

/** Every counter whose key names the address. */
async function countersNaming(address: string) {
  return server.db.select({ key: rateLimits.key, count: rateLimits.count }).from(rateLimits).where(like(rateLimits.key, `%${address}%`));
}

describe('counters an anonymous address adds', () => {
  it('adds at most 30 pairs of forgot-password counters per address an hour, whatever e-mails it names, and nothing for those it refuses', async () => {
    const address = newAddress();
    const emails = Array.from({ length: 35 }, (_, index) => `fresh-${index}-${address}@example.com`);
    const answers = [];
    for (const email of emails) answers.push(await api.post('/api/auth/forgot-password', { json: { email }, headers: { 'x-forwarded-for': address } }));
    for (const answer of answers.slice(0, 30)) expect(answer.status).toBe(200);
    for (const refused of answers.slice(30)) expectTooMany(refused);

    // The e-mails name the address too, so every counter the requests wrote is found by it.
    const counters = await countersNaming(address);
    const expected = emails.slice(0, 30).flatMap((email) => [`forgot-password:${email}:${address}`, `forgot-password:${email}`]);
    expect(counters.map((counter) => counter.key).sort()).toEqual([`forgot-password-address:${address}`, ...expected].sort());
    expect(counters.find((counter) => counter.key === `forgot-password-address:${address}`)?.count).toBe(35);
  });

  it('adds at most 60 inquiry counters per address a minute, whichever listing ids it names', async () => {
    const address = newAddress();
    const answers = [];
    for (let index = 0; index < 65; index += 1) {
      answers.push(await api.post(`/api/public/listings/${crypto.randomUUID()}/inquiry`, { json: { method: 'call' }, headers: { 'x-forwarded-for': address } }));
    }
    for (const answer of answers.slice(0, 60)) {
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('NOT_FOUND');
    }
    for (const refused of answers.slice(60)) expectTooMany(refused);
    const counters = await countersNaming(address);
    expect(counters.filter((counter) => counter.key.startsWith('inquiry:'))).toHaveLength(60);
    expect(counters.find((counter) => counter.key === `inquiry-address:${address}`)?.count).toBe(65);
    expect(counters).toHaveLength(61);
  });
});
