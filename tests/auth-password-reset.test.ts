import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { passwordMatches } from '../lib/auth/passwords.js';
import { users } from '../lib/db/schema.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { buildAgent, type TestUser } from './support/factories.js';
import { startLoopbackResend, type LoopbackResend } from './support/loopback-resend.js';
import { useTestServer } from './support/test-server.js';
import { resetCodeDigest } from './support/server-keys.js';

let resend: LoopbackResend;

const FORGOT_MESSAGE = 'If an account exists for that e-mail, a reset code has been sent to it.';

beforeAll(async () => {
  resend = await startLoopbackResend();
});
afterAll(() => resend.close());
const server = useTestServer(() => ({ RESEND_API_KEY: resend.apiKey, RESEND_BASE_URL: resend.baseUrl, MAIL_FROM: 'Shop <no-reply@shop.example>' }));
const api = server.api;
beforeEach(() => resend.failWith(undefined));

async function stored(user: TestUser) {
  const [row] = await server.db.select().from(users).where(eq(users.id, user.id));
  return row!;
}

/** Asks for a code and answers it as read from the e-mail the provider received. */
async function requestCode(user: TestUser): Promise<string> {
  const sentBefore = resend.sent.length;
  const response = await api.post('/api/auth/forgot-password', { json: { email: user.email } });
  expect(response.status).toBe(200);
  await settleDeferredWork();
  const mail = resend.sent.slice(sentBefore).find((email) => email.to.includes(user.email));
  const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
  expect(code).toBeDefined();
  return code!;
}

function wrongCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

function reset(body: Record<string, unknown>) {
  return api.post('/api/auth/reset-password', { json: body });
}

describe('POST /api/auth/forgot-password', () => {
  it('e-mails a 6-digit code through the provider and stores only its digest keyed by the server secret, for 15 minutes', async () => {
    const agent = await buildAgent(server.db);
    const sentBefore = resend.sent.length;
    const response = await api.post('/api/auth/forgot-password', { json: { email: agent.email.toUpperCase() } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: FORGOT_MESSAGE });
    await settleDeferredWork();
    const mails = resend.sent.slice(sentBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ from: 'Shop <no-reply@shop.example>', to: [agent.email], subject: 'Your password reset code' });
    const code = /\b(\d{6})\b/.exec(mails[0]!.text!)![1]!;
    expect(response.text).not.toContain(code);
    const row = await stored(agent);
    expect(row.passwordResetToken).toBe(resetCodeDigest(code));
    expect(row.passwordResetToken).not.toBe(crypto.createHash('sha256').update(code).digest('hex'));
    expect(row.passwordResetAttempts).toBe(0);
    const minutesLeft = (row.passwordResetExpires!.getTime() - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(14);
    expect(minutesLeft).toBeLessThanOrEqual(15);
  });

  it('answers the same for an unknown e-mail and sends nothing', async () => {
    const sentBefore = resend.sent.length;
    const response = await api.post('/api/auth/forgot-password', { json: { email: 'nobody-at-all@example.com' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: FORGOT_MESSAGE });
    await settleDeferredWork();
    expect(resend.sent.length).toBe(sentBefore);
  });

  it('answers the same when the provider fails, and the failure is not revealed', async () => {
    const agent = await buildAgent(server.db);
    resend.failWith(500);
    const refusedBefore = resend.refused;
    const response = await api.post('/api/auth/forgot-password', { json: { email: agent.email } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: FORGOT_MESSAGE });
    await settleDeferredWork();
    expect(resend.refused).toBe(refusedBefore + 1);
    expect((await stored(agent)).passwordResetToken).toMatch(/^[0-9a-f]{64}$/);
  });

  it('replaces an earlier code and restarts the wrong-try count', async () => {
    const agent = await buildAgent(server.db);
    const first = await requestCode(agent);
    await reset({ email: agent.email, token: wrongCode(first), newPassword: 'another-password' });
    expect((await stored(agent)).passwordResetAttempts).toBe(1);
    const second = await requestCode(agent);
    expect(await stored(agent)).toMatchObject({ passwordResetToken: resetCodeDigest(second), passwordResetAttempts: 0 });
  });

  it('refuses a malformed e-mail with 400', async () => {
    const response = await api.post('/api/auth/forgot-password', { json: { email: 'not an email' } });
    expect(response.status).toBe(400);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field: 'email', message: 'must be a valid e-mail address' }));
  });

  it('refuses the 6th request for one e-mail within an hour with 429', async () => {
    const agent = await buildAgent(server.db);
    const sentBefore = resend.sent.length;
    for (let i = 0; i < 5; i += 1) expect((await api.post('/api/auth/forgot-password', { json: { email: agent.email } })).status).toBe(200);
    const refused = await api.post('/api/auth/forgot-password', { json: { email: agent.email } });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, code: 'RATE_LIMITED', error: 'Too many requests, try again later' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(15 * 60);
    expect(retryAfter).toBeLessThanOrEqual(60 * 60);
    await settleDeferredWork();
    expect(resend.sent.length - sentBefore).toBe(5);
    const other = await buildAgent(server.db);
    expect((await api.post('/api/auth/forgot-password', { json: { email: other.email } })).status).toBe(200);
  });
});

describe('POST /api/auth/reset-password: happy path', () => {
  it('sets the new password from the e-mailed code and clears the reset fields', async () => {
    const agent = await buildAgent(server.db);
    const code = await requestCode(agent);
    const response = await reset({ email: agent.email, token: code, newPassword: 'brand-new-password' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: 'Your password has been reset.' });
    const row = await stored(agent);
    expect(row).toMatchObject({ passwordResetToken: null, passwordResetExpires: null, passwordResetAttempts: 0 });
    expect(await passwordMatches('brand-new-password', row.password)).toBe(true);
    expect((await api.post('/api/auth/login', { json: { email: agent.email, password: 'brand-new-password' } })).status).toBe(200);
    expect((await api.post('/api/auth/login', { json: { email: agent.email, password: agent.password } })).status).toBe(401);
  });

  it('accepts a code only once', async () => {
    const agent = await buildAgent(server.db);
    const code = await requestCode(agent);
    expect((await reset({ email: agent.email, token: code, newPassword: 'first-new-password' })).status).toBe(200);
    const again = await reset({ email: agent.email, token: code, newPassword: 'second-new-password' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ success: false, code: 'INVALID_RESET_CODE', error: 'Invalid or expired reset code' });
    expect(await passwordMatches('first-new-password', (await stored(agent)).password)).toBe(true);
  });
});

describe('POST /api/auth/reset-password: errors', () => {
  it('refuses a wrong code, counting the try and keeping the password', async () => {
    const agent = await buildAgent(server.db);
    const code = await requestCode(agent);
    const before = await stored(agent);
    const response = await reset({ email: agent.email, token: wrongCode(code), newPassword: 'brand-new-password' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, code: 'INVALID_RESET_CODE', error: 'Invalid or expired reset code' });
    const row = await stored(agent);
    expect(row).toMatchObject({ password: before.password, passwordResetToken: resetCodeDigest(code), passwordResetAttempts: 1 });
  });

  it('clears the code after 5 wrong tries, so even the right one is refused next', async () => {
    const agent = await buildAgent(server.db);
    const code = await requestCode(agent);
    for (let i = 0; i < 5; i += 1) expect((await reset({ email: agent.email, token: wrongCode(code), newPassword: 'brand-new-password' })).status).toBe(400);
    expect(await stored(agent)).toMatchObject({ passwordResetToken: null, passwordResetExpires: null });
    const right = await reset({ email: agent.email, token: code, newPassword: 'brand-new-password' });
    expect(right.status).toBe(400);
    expect(right.body.error).toBe('Invalid or expired reset code');
    expect(await passwordMatches(agent.password, (await stored(agent)).password)).toBe(true);
  });

  it('allows no more than 5 wrong tries even when they arrive at once', async () => {
    const agent = await buildAgent(server.db);
    const code = await requestCode(agent);
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + i + 1) % 1_000_000).padStart(6, '0'));
    const responses = await Promise.all(guesses.map((token) => reset({ email: agent.email, token, newPassword: 'brand-new-password' })));
    expect(responses.every((response) => response.status === 400)).toBe(true);
    expect(await stored(agent)).toMatchObject({ passwordResetToken: null, passwordResetAttempts: 5 });
    expect((await reset({ email: agent.email, token: code, newPassword: 'brand-new-password' })).status).toBe(400);
  });

  it('refuses an expired code', async () => {
    const agent = await buildAgent(server.db);
    const code = await requestCode(agent);
    await server.db.update(users).set({ passwordResetExpires: sql`now() - interval '1 second'` }).where(eq(users.id, agent.id));
    const response = await reset({ email: agent.email, token: code, newPassword: 'brand-new-password' });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Invalid or expired reset code');
    expect(await passwordMatches(agent.password, (await stored(agent)).password)).toBe(true);
  });

  it('refuses a code sent for another account', async () => {
    const agent = await buildAgent(server.db);
    const other = await buildAgent(server.db);
    const code = await requestCode(agent);
    const response = await reset({ email: other.email, token: code, newPassword: 'brand-new-password' });
    expect(response.status).toBe(400);
    expect(await passwordMatches(other.password, (await stored(other)).password)).toBe(true);
  });

  it('answers the same for an e-mail without an account', async () => {
    const response = await reset({ email: 'ghost@example.com', token: '123456', newPassword: 'brand-new-password' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, code: 'INVALID_RESET_CODE', error: 'Invalid or expired reset code' });
  });

  it.each([
    ['a code that is not 6 digits', { token: '12345' }, 'token', 'must be 6 digits'],
    ['a short new password', { newPassword: 'short' }, 'newPassword', 'must be at least 8 characters'],
    ['no e-mail', { email: undefined }, 'email', 'is required'],
  ])('refuses %s with 400 without counting a try', async (_label, overrides, field, message) => {
    const agent = await buildAgent(server.db);
    await requestCode(agent);
    const body = JSON.parse(JSON.stringify({ email: agent.email, token: '123456', newPassword: 'brand-new-password', ...overrides }));
    const response = await reset(body);
    expect(response.status).toBe(400);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field, message }));
    expect((await stored(agent)).passwordResetAttempts).toBe(0);
  });
});
