import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../lib/db/schema.js';
import { captureLog } from './support/capture-log.js';
import { buildAgent } from './support/factories.js';
import { startLoopbackResend, type LoopbackResend } from './support/loopback-resend.js';
import { useTestServer } from './support/test-server.js';
import { resetCodeDigest } from './support/server-keys.js';

/** Without RESEND_API_KEY e-mails are simulated; outside production the log carries the code. */
let resend: LoopbackResend;

beforeAll(async () => {
  // The provider is reachable, but without a key nothing may be sent to it.
  resend = await startLoopbackResend();
});
afterAll(() => resend.close());
const server = useTestServer(() => ({ RESEND_BASE_URL: resend.baseUrl }));
const api = server.api;

describe('simulated e-mail outside production', () => {
  it('logs the reset e-mail with its code, sends nothing, and the logged code resets the password', async () => {
    const agent = await buildAgent(server.db);
    const log = await captureLog(async () => {
      const response = await api.post('/api/auth/forgot-password', { json: { email: agent.email } });
      expect(response.status).toBe(200);
    });
    const simulated = log.find((line) => line.msg === 'e-mail simulated (RESEND_API_KEY is not set)');
    expect(simulated).toMatchObject({ level: 'info', to: agent.email, subject: 'Your password reset code' });
    const code = /\b(\d{6})\b/.exec(String(simulated!.text))![1]!;
    const [row] = await server.db.select().from(users).where(eq(users.id, agent.id));
    expect(row!.passwordResetToken).toBe(resetCodeDigest(code));
    expect(resend.sent).toHaveLength(0);
    expect(resend.refused).toBe(0);
    const reset = await api.post('/api/auth/reset-password', { json: { email: agent.email, token: code, newPassword: 'logged-code-works' } });
    expect(reset.status).toBe(200);
  });
});
