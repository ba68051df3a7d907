import { eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bcryptHash } from '../lib/auth/bcrypt-worker.js';
import { rateLimits } from '../lib/db/schema.js';
import { buildAgent } from './support/factories.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer({ TRUST_PROXY: '1' });
const api = server.api;

function login(email: string, address: string, password = 'not-the-password') {
  return api.post('/api/auth/login', { json: { email, password }, headers: { 'x-forwarded-for': address } });
}

describe('sign-in ceilings', () => {
  it('stops one address after 30 password checks, whichever e-mails they name, and only that address', async () => {
    const answers = [];
    for (let index = 0; index < 30; index += 1) answers.push((await login(`fresh-${index}@example.com`, '198.51.100.7')).status);
    expect(answers).toEqual(Array(30).fill(401));
    const over = await login('yet-another@example.com', '198.51.100.7');
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ success: false, code: 'RATE_LIMITED', error: 'Too many requests, try again later' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login('yet-another@example.com', '198.51.100.8')).status).toBe(401);
  });

  it('counts nothing for the e-mail a sign-in names once its address is over the ceiling', async () => {
    for (let index = 0; index < 30; index += 1) expect((await login(`spent-${index}@example.com`, '198.51.100.9')).status).toBe(401);
    const over = await login('named-when-over@example.com', '198.51.100.9');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    const counters = await server.db.select({ key: rateLimits.key, count: rateLimits.count }).from(rateLimits).where(like(rateLimits.key, '%named-when-over%'));
    expect(counters).toEqual([]);
    const [address] = await server.db.select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.key, 'login-address:198.51.100.9'));
    expect(address?.count).toBe(31);
  });

  it('stops guesses at one account after 50, whatever the address, while its owner elsewhere is refused too', async () => {
    const agent = await buildAgent(server.db);
    const answers = [];
    for (let index = 0; index < 50; index += 1) answers.push((await login(agent.email, `203.0.113.${index + 1}`)).status);
    expect(answers).toEqual(Array(50).fill(401));
    expect((await login(agent.email, '203.0.113.200')).status).toBe(429);
    expect((await login(agent.email, '192.0.2.1', agent.password)).status).toBe(429);
  });

  it('lets the owner in without a device token from an address it signed in from before, after strangers from several addresses spent the ceiling', async () => {
    const owner = await buildAgent(server.db);
    expect((await login(owner.email, '192.0.2.40', owner.password)).status).toBe(200);
    const strangers = await Promise.all(
      Array.from({ length: 6 }, async (_, address) => {
        const statuses = [];
        for (let guess = 0; guess < 10; guess += 1) statuses.push((await login(owner.email, `203.0.113.${address + 60}`)).status);
        return statuses;
      }),
    );
    // The owner's first sign-in counted too, before its address was one the account had signed in from.
    expect(strangers.flat().filter((status) => status === 401)).toHaveLength(49);
    expect(strangers.flat().filter((status) => status === 429)).toHaveLength(11);
    expect((await login(owner.email, '203.0.113.99', owner.password)).status).toBe(429);

    const fromHome = await login(owner.email, '192.0.2.40', owner.password);
    expect(fromHome.status).toBe(200);
    expect(fromHome.body.data.user.id).toBe(owner.id);
    expect((await login(owner.email, '192.0.2.40')).status).toBe(401);
    const [ceiling] = await server.db.select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.key, `login-account:${owner.email}`));
    expect(ceiling?.count).toBe(62);
  });
});

describe('sign-ins under way per address', () => {
  it('refuses a third sign-in from an address at once while two are under way, counting nothing for it, and no other address', async () => {
    const agent = await buildAgent(server.db);
    // Checks run one at a time on the instance's hashing worker: a slow job held there keeps the
    // first sign-ins under way while the rest arrive.
    const held = bcryptHash('holds the worker', 13);
    const [fromBusy, fromOther] = await Promise.all([
      Promise.all(Array.from({ length: 6 }, (_, index) => login(`busy-${index}@example.com`, '198.51.100.20'))),
      login('bystander@example.com', '198.51.100.21'),
    ]);
    await held;
    const checked = fromBusy.filter((response) => response.status === 401);
    const refused = fromBusy.filter((response) => response.status === 429);
    expect(checked).toHaveLength(2);
    expect(refused).toHaveLength(4);
    for (const response of checked) expect(response.body).toEqual({ success: false, code: 'INVALID_CREDENTIALS', error: 'Invalid email or password' });
    for (const response of refused) {
      expect(response.body).toEqual({ success: false, code: 'RATE_LIMITED', error: 'Too many requests, try again later' });
      expect(response.headers.get('retry-after')).toBe('1');
    }
    expect(fromOther.status).toBe(401);
    const counters = await server.db.select({ key: rateLimits.key, count: rateLimits.count }).from(rateLimits).where(like(rateLimits.key, '%198.51.100.20%'));
    expect(counters.filter((counter) => counter.key.startsWith('login:'))).toHaveLength(2);
    expect(counters.find((counter) => counter.key === 'login-address:198.51.100.20')?.count).toBe(2);
    expect((await login(agent.email, '198.51.100.20', agent.password)).status).toBe(200);
  });
});
