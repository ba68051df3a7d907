import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../lib/db/schema.js';
import { captureLog } from './support/capture-log.js';
import { buildAgent } from './support/factories.js';
import { startLoopbackResend, type LoopbackResend } from './support/loopback-resend.js';
import { useTestServer } from './support/test-server.js';

/** In production a simulated e-mail is logged without its body, so the log never holds a reset code. */
let resend: LoopbackResend;

beforeAll(async () => {
  // The provider is reachable, but without a key nothing may be sent to it.
  resend = await startLoopbackResend();
});
afterAll(() => resend.close());
const server = useTestServer(() => ({ RESEND_BASE_URL: resend.baseUrl, NODE_ENV: 'production' }));
const api = server.api;

describe('simulated e-mail in production', () => {
  it('logs who the reset e-mail was for, never its code, and still stores the code for the reset', async () => {
    const agent = await buildAgent(server.db);
    const log = await captureLog(async () => {
      const response = await api.post('/api/auth/forgot-password', { json: { email: agent.email } });
      expect(response.status).toBe(200);
    });
    const simulated = log.find((line) => line.msg === 'e-mail simulated (RESEND_API_KEY is not set)');
    expect(simulated).toEqual({ level: 'info', time: expect.any(String), msg: expect.any(String), to: agent.email, subject: 'Your password reset code' });
    expect(log.map((line) => JSON.stringify(line)).join('\n')).not.toMatch(/\b\d{6}\b/);
    const [row] = await server.db.select().from(users).where(eq(users.id, agent.id));
    expect(row!.passwordResetToken).toMatch(/^[0-9a-f]{64}$/);
    expect(resend.sent).toHaveLength(0);
  });
});
