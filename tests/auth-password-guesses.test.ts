import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { bcryptHash } from '../lib/auth/bcrypt-worker.js';
import { rateLimits, users } from '../lib/db/schema.js';
import { buildAdmin, buildAgent, type TestUser } from './support/factories.js';
import { useTestServer } from './support/test-server.js';
import { expectTooMany } from './support/refusals.js';

const server = useTestServer({ TRUST_PROXY: '1' });
const api = server.api;
const WRONG_CURRENT_PASSWORD = { success: false, code: 'CURRENT_PASSWORD_INCORRECT', error: 'Current password is incorrect' };

function login(body: Record<string, unknown>, address: string) {
  return api.post('/api/auth/login', { json: body, headers: { 'x-forwarded-for': address } });
}

function changeEmail(user: TestUser, email: string, currentPassword: string) {
  return api.put('/api/auth/me', { token: user.token, json: { email, currentPassword } });
}

async function counter(key: string): Promise<number | undefined> {
  const [row] = await server.db.select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.key, key));
  return row?.count;
}

async function emailOf(user: TestUser): Promise<string> {
  const [row] = await server.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
  return row!.email;
}

describe('current password guesses', () => {
  it('refuses a sixth current password within 15 minutes with 429 and Retry-After, even the right one, after a right one gave its count back', async () => {
    const agent = await buildAgent(server.db);
    const moved = `moved-${agent.id}@example.com`;
    expect((await changeEmail(agent, moved, agent.password)).status).toBe(200);
    expect(await counter(`current-password:${agent.id}`)).toBe(0);

    for (let guess = 0; guess < 5; guess += 1) {
      const wrong = await changeEmail(agent, `thief-${guess}@example.com`, `not-it-${guess}`);
      expect(wrong.status).toBe(403);
      expect(wrong.body).toEqual(WRONG_CURRENT_PASSWORD);
    }
    expectTooMany(await changeEmail(agent, 'thief-right@example.com', agent.password));
    expect(await counter(`current-password:${agent.id}`)).toBe(6);
    expect(await emailOf(agent)).toBe(moved);
  });

  it("checks another account's sign-in while one account's wrong current passwords wait for the hashing worker", async () => {
    const agent = await buildAgent(server.db);
    const admin = await buildAdmin(server.db);
    // A cost-11 hash makes each of the agent's checks slow enough to queue behind one another.
    await server.db.update(users).set({ password: await bcryptHash(agent.password, 11) }).where(eq(users.id, agent.id));
    const answered: string[] = [];
    const guesses = Array.from({ length: 8 }, (_, guess) =>
      changeEmail(agent, `flood-${guess}@example.com`, `wrong-${guess}`).then((response) => {
        answered.push(`guess ${response.status}`);
        return response;
      }),
    );
    // The admin signs in once all eight guesses are counted: five passed the limit and queue their checks.
    while ((await counter(`current-password:${agent.id}`)) !== 8) await new Promise((resolve) => setTimeout(resolve, 20));
    const signIn = login({ email: admin.email, password: admin.password }, '198.51.100.60').then((response) => {
      answered.push('sign-in');
      return response;
    });

    const [floodAnswers, adminAnswer] = await Promise.all([Promise.all(guesses), signIn]);

    expect(adminAnswer.status).toBe(200);
    expect(adminAnswer.body.data.user.id).toBe(admin.id);
    expect(floodAnswers.filter((response) => response.status === 403)).toHaveLength(5);
    for (const refused of floodAnswers.filter((response) => response.status !== 403)) expectTooMany(refused);
    // Taking turns, the admin's check waits for the one check already running, so most of the
    // agent's are answered after it; queued behind all of them, it would be answered last.
    expect(answered.slice(answered.indexOf('sign-in')).filter((entry) => entry === 'guess 403').length).toBeGreaterThanOrEqual(3);
    expect(await emailOf(agent)).toBe(agent.email);
  }, 120_000);
});

describe('device tokens', () => {
  it("lets the owner in with the account's device token after strangers spent the account's ceiling, counting nothing against it", async () => {
    const owner = await buildAgent(server.db);
    const first = await login({ email: owner.email, password: owner.password }, '192.0.2.10');
    expect(first.status).toBe(200);
    const { deviceToken } = first.body.data;
    expect(decodeJwt(deviceToken)).toMatchObject({ sub: owner.id, jti: expect.any(String) });

    // With the owner's own sign-in, the strangers' 49 guesses reach the account's ceiling of 50.
    const strangers = await Promise.all(
      Array.from({ length: 7 }, async (_, address) => {
        const statuses = [];
        for (let guess = 0; guess < 7; guess += 1) statuses.push((await login({ email: owner.email, password: `guess-${guess}` }, `203.0.113.${address + 10}`)).status);
        return statuses;
      }),
    );
    expect(strangers.flat()).toEqual(Array(49).fill(401));
    expectTooMany(await login({ email: owner.email, password: owner.password }, '192.0.2.11'));

    const trusted = await login({ email: owner.email, password: owner.password, deviceToken }, '192.0.2.12');
    expect(trusted.status).toBe(200);
    expect(trusted.body).toEqual({
      success: true,
      data: { user: { id: owner.id, email: owner.email, name: owner.name, role: 'AGENT' }, token: expect.any(String), deviceToken: expect.any(String) },
    });
    expect((await api.get('/api/auth/me', { token: trusted.body.data.token })).body.data.id).toBe(owner.id);
    const renewed = decodeJwt(trusted.body.data.deviceToken);
    expect(renewed.sub).toBe(owner.id);
    expect(renewed.jti).not.toBe(decodeJwt(deviceToken).jti);
    expect(await counter(`login-device:${decodeJwt(deviceToken).jti}`)).toBe(0);
    expect(await counter(`login-account:${owner.email}`)).toBe(51);
  });

  it("stops a device token after 10 wrong passwords with 429, while the account's other device still signs in", async () => {
    const owner = await buildAgent(server.db);
    const [one, other] = [
      (await login({ email: owner.email, password: owner.password }, '192.0.2.20')).body.data.deviceToken,
      (await login({ email: owner.email, password: owner.password }, '192.0.2.21')).body.data.deviceToken,
    ];
    for (let guess = 0; guess < 10; guess += 1) {
      const wrong = await login({ email: owner.email, password: `guess-${guess}`, deviceToken: one }, '192.0.2.20');
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ success: false, code: 'INVALID_CREDENTIALS', error: 'Invalid email or password' });
    }
    expectTooMany(await login({ email: owner.email, password: owner.password, deviceToken: one }, '192.0.2.20'));
    expect(await counter(`login-device:${decodeJwt(one).jti}`)).toBe(11);

    const fromOther = await login({ email: owner.email, password: owner.password, deviceToken: other }, '192.0.2.21');
    expect(fromOther.status).toBe(200);
    expect(fromOther.body.data.user.id).toBe(owner.id);
    expect(await counter(`login-account:${owner.email}`)).toBe(2);
  });

  it("counts a sign-in with another account's device token, a forged one or a bearer token under the account-wide ceiling, as one without", async () => {
    const [owner, target] = [await buildAgent(server.db), await buildAgent(server.db)];
    const ownersDevice: string = (await login({ email: owner.email, password: owner.password }, '192.0.2.30')).body.data.deviceToken;
    const [header, payload] = ownersDevice.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...decodeJwt(ownersDevice), sub: target.id })).toString('base64url')}.${ownersDevice.split('.')[2]}`;
    for (const deviceToken of [ownersDevice, forged, target.token, `${header}.${payload}.`]) {
      const response = await login({ email: target.email, password: 'not-the-password', deviceToken }, '192.0.2.31');
      expect(response.status).toBe(401);
    }
    expect(await counter(`login-account:${target.email}`)).toBe(4);
    expect(await counter(`login-device:${decodeJwt(ownersDevice).jti}`)).toBeUndefined();
  });
});
