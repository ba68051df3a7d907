import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../lib/db/schema.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { buildAgent, type TestUser } from './support/factories.js';
import { startLoopbackResend, type LoopbackResend } from './support/loopback-resend.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

let resend: LoopbackResend;
beforeAll(async () => {
  resend = await startLoopbackResend();
});
afterAll(() => resend.close());
const server = useTestServer(() => ({ RESEND_API_KEY: resend.apiKey, RESEND_BASE_URL: resend.baseUrl }));
const api = server.api;
const shop = useShop(server);

async function emailOf(user: TestUser): Promise<string> {
  const [row] = await server.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
  return row!.email;
}

describe('PUT /api/auth/me: changing the e-mail needs the current password', () => {
  it.each([
    ['without currentPassword', undefined],
    ['with a wrong currentPassword', 'not-the-password'],
  ])('refuses a token alone %s with 403, changing nothing', async (_label, currentPassword) => {
    const { admin } = shop;
    const response = await api.put('/api/auth/me', {
      token: admin.token,
      json: { email: 'thief@example.com', name: 'Not Applied', ...(currentPassword ? { currentPassword } : {}) },
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, code: 'CURRENT_PASSWORD_INCORRECT', error: 'Current password is incorrect' });
    expect(await emailOf(admin)).toBe(admin.email);
  });

  it('does not tell a caller without the password whether an address has an account', async () => {
    const { agent, otherAgent: other } = shop;
    const taken = await api.put('/api/auth/me', { token: agent.token, json: { email: other.email } });
    const free = await api.put('/api/auth/me', { token: agent.token, json: { email: 'nobody-has-this@example.com' } });
    expect([taken.status, taken.body]).toEqual([free.status, free.body]);
    expect(taken.status).toBe(403);
    expect(await emailOf(agent)).toBe(agent.email);
  });

  // The next two change their account, so each builds its own.
  it('changes the e-mail with the right password and tells the old address', async () => {
    const agent = await buildAgent(server.db);
    const sentBefore = resend.sent.length;
    const response = await api.put('/api/auth/me', { token: agent.token, json: { email: 'moved@example.com', currentPassword: agent.password } });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id: agent.id, email: 'moved@example.com' });
    expect(await emailOf(agent)).toBe('moved@example.com');
    await settleDeferredWork();
    const notices = resend.sent.slice(sentBefore);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ to: [agent.email], subject: 'The e-mail address of your account was changed' });
    expect(notices[0]!.text).toContain('moved@example.com');
  });

  it('needs no password for other profile fields, nor for sending the unchanged e-mail', async () => {
    const agent = await buildAgent(server.db);
    const sentBefore = resend.sent.length;
    const response = await api.put('/api/auth/me', { token: agent.token, json: { email: agent.email.toUpperCase(), name: 'Renamed' } });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ email: agent.email, name: 'Renamed' });
    await settleDeferredWork();
    expect(resend.sent.length).toBe(sentBefore);
  });
});
