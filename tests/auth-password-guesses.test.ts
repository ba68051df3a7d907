import { eq, like, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { bcryptHash } from '../lib/auth/bcrypt-worker.js';
import { upsertAdmin } from '../lib/auth/bootstrap-admin.js';
import { deviceTokens, rateLimits, users } from '../lib/db/schema.js';
import { buildAdmin, buildAgent, plantResetCode, type TestUser } from './support/factories.js';
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

/** Strangers have spent the account-wide ceiling of sign-ins without a device token, as 50 wrong guesses would. */
async function spendAccountCeiling(email: string): Promise<void> {
  await server.db
    .insert(rateLimits)
    .values({ key: `login-account:${email}`, count: 50, resetAt: sql`now() + interval '15 minutes'` })
    .onConflictDoUpdate({ target: rateLimits.key, set: { count: 50, resetAt: sql`now() + interval '15 minutes'` } });
}

async function liveDevices(user: TestUser): Promise<string[]> {
  const rows = await server.db.select({ id: deviceTokens.id }).from(deviceTokens).where(eq(deviceTokens.userId, user.id));
  return rows.map((row) => row.id);
}

describe('device tokens that end', () => {
  it('ends every device token issued before a password reset: one of them no longer passes the account-wide ceiling', async () => {
    const owner = await buildAgent(server.db);
    const before: string[] = [];
    for (let device = 0; device < 3; device += 1) before.push((await login({ email: owner.email, password: owner.password }, `192.0.2.${70 + device}`)).body.data.deviceToken);
    expect(await liveDevices(owner)).toHaveLength(3);

    await plantResetCode(server.db, owner.id, '246810');
    const reset = await api.post('/api/auth/reset-password', { json: { email: owner.email, token: '246810', newPassword: 'the-new-password' } });
    expect(reset.status).toBe(200);
    expect(await liveDevices(owner)).toEqual([]);

    await spendAccountCeiling(owner.email);
    for (const [device, deviceToken] of before.entries()) {
      expectTooMany(await login({ email: owner.email, password: 'the-new-password', deviceToken }, `192.0.2.${70 + device}`));
      expect(await counter(`login-device:${decodeJwt(deviceToken).jti}`)).toBeUndefined();
    }
    expect(await counter(`login-account:${owner.email}`)).toBe(53);
  });

  it("ends the administrator's device tokens when create-admin changes the password, and keeps them when it does not", async () => {
    const admin = await buildAdmin(server.db);
    const deviceToken: string = (await login({ email: admin.email, password: admin.password }, '192.0.2.75')).body.data.deviceToken;
    const details = { email: admin.email, name: 'Same Admin', phone: '+15550003' };
    await upsertAdmin(server.db, { ...details, password: admin.password });
    expect(await liveDevices(admin)).toEqual([decodeJwt(deviceToken).jti]);

    await upsertAdmin(server.db, { ...details, password: 'a-changed-password' });
    expect(await liveDevices(admin)).toEqual([]);
    await spendAccountCeiling(admin.email);
    expectTooMany(await login({ email: admin.email, password: 'a-changed-password', deviceToken }, '192.0.2.75'));
  });

  it("keeps an account's 10 newest device tokens: the oldest no longer passes the account-wide ceiling, the next one does", async () => {
    const owner = await buildAgent(server.db);
    const issued: string[] = [];
    for (let device = 0; device < 11; device += 1) issued.push((await login({ email: owner.email, password: owner.password }, `192.0.2.${80 + device}`)).body.data.deviceToken);
    expect((await liveDevices(owner)).sort()).toEqual(issued.slice(1).map((token) => decodeJwt(token).jti).sort());

    await spendAccountCeiling(owner.email);
    expectTooMany(await login({ email: owner.email, password: owner.password, deviceToken: issued[0] }, '203.0.113.80'));
    const next = await login({ email: owner.email, password: owner.password, deviceToken: issued[1] }, '203.0.113.81');
    expect(next.status).toBe(200);
    expect(next.body.data.user.id).toBe(owner.id);
    // The sign-in took a place among the ten: the token it answered is live, the one after the oldest is not.
    const live = await liveDevices(owner);
    expect(live).toHaveLength(10);
    expect(live).toContain(decodeJwt(next.body.data.deviceToken).jti);
    expect(live).not.toContain(decodeJwt(issued[1]!).jti);
  });
});

/** Resolves once `condition` holds, checking every 20 ms. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function addressCounters(prefix: string) {
  return server.db.select({ key: rateLimits.key, count: rateLimits.count }).from(rateLimits).where(like(rateLimits.key, `login-address:${prefix}%`));
}

describe('the queue of password checks', () => {
  it('refuses a sign-in at once with 503 and Retry-After while eight password checks are held, counting nothing for it', async () => {
    // Checks run one at a time on the instance's hashing worker: a slow job held there keeps the
    // first sign-ins' checks waiting while the rest arrive.
    const held = bcryptHash('holds the worker', 13);
    const addresses = Array.from({ length: 11 }, (_, index) => `198.51.100.${150 + index}`);
    const answers = await Promise.all(addresses.map((address, index) => login({ email: `queued-${index}@example.com`, password: 'wrong' }, address)));
    await held;

    const checked = answers.filter((answer) => answer.status === 401);
    const refused = answers.filter((answer) => answer.status === 503);
    expect(checked).toHaveLength(8);
    expect(refused).toHaveLength(3);
    for (const answer of refused) {
      expect(answer.body).toEqual({ success: false, code: 'PASSWORD_CHECKS_BUSY', error: 'Too many password checks are waiting, try again shortly' });
      expect(answer.headers.get('retry-after')).toBe('1');
    }
    const counted = await addressCounters('198.51.100.1');
    expect(counted).toHaveLength(8);
    expect(counted.map((row) => row.key).sort()).toEqual(addresses.filter((_, index) => answers[index]!.status === 401).map((address) => `login-address:${address}`).sort());
  }, 60_000);

  it('checks a sign-in with a live device token next, ahead of the checks already waiting, taking the newest place of one without', async () => {
    const admin = await buildAdmin(server.db);
    const { deviceToken } = (await login({ email: admin.email, password: admin.password }, '192.0.2.100')).body.data;
    // Strangers guess at eight accounts whose cost-11 hashes make each check slow enough to be seen waiting.
    const targets = await Promise.all(Array.from({ length: 8 }, () => buildAgent(server.db)));
    const slowHash = await bcryptHash('not-what-they-guess', 11);
    for (const target of targets) await server.db.update(users).set({ password: slowHash }).where(eq(users.id, target.id));

    const answered: string[] = [];
    const held = bcryptHash('holds the worker', 13);
    const guesses = targets.map((target, index) =>
      login({ email: target.email, password: 'wrong' }, `198.51.100.${170 + index}`).then((response) => {
        answered.push(`guess ${response.status}`);
        return response;
      }),
    );
    // The administrator signs in once every guess holds its place and is counted.
    await until(async () => (await addressCounters('198.51.100.17')).length === 8);
    const signIn = login({ email: admin.email, password: admin.password, deviceToken }, '192.0.2.100').then((response) => {
      answered.push('sign-in');
      return response;
    });
    const [guessAnswers, adminAnswer] = await Promise.all([Promise.all(guesses), signIn]);
    await held;

    expect(adminAnswer.status).toBe(200);
    expect(adminAnswer.body.data.user.id).toBe(admin.id);
    const givenUp = guessAnswers.filter((response) => response.status === 503);
    expect(givenUp).toHaveLength(1);
    expect(givenUp[0]!.body).toEqual({ success: false, code: 'PASSWORD_CHECKS_BUSY', error: 'Too many password checks are waiting, try again shortly' });
    expect(guessAnswers.filter((response) => response.status === 401)).toHaveLength(7);
    // Going first, the administrator's check waits only for the one running; behind the strangers'
    // seven cost-11 checks it would be answered last.
    expect(answered.slice(answered.indexOf('sign-in')).filter((entry) => entry === 'guess 401').length).toBeGreaterThanOrEqual(5);
  }, 120_000);

  it('counts the addresses of one IPv6 /64 as one address: a third sign-in from it is refused while two are under way', async () => {
    const held = bcryptHash('holds the worker', 13);
    const answers = await Promise.all(['2001:db8:77:1::a', '2001:db8:77:1::b', '2001:db8:77:1:ffff::c'].map((address, index) => login({ email: `v6-${index}@example.com`, password: 'wrong' }, address)));
    await held;
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(2);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(1);
    expectTooMany(refused[0]!);
    expect(await counter('login-address:2001:db8:77:1::/64')).toBe(2);
  }, 60_000);
});
