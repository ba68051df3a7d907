import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../lib/db/schema.js';
import { captureLog } from './support/capture-log.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const BOT_TOKEN = '812345678:AAHdebugLogBotToken_neverWrittenToTheLog';

// The statement logger is chosen as the database is opened, so the server opens it at debug level;
// the lines are written (and read) only while a test captures them.
const server = useTestServer({ LOG_LEVEL: 'debug' });
beforeAll(() => {
  process.env.LOG_LEVEL = 'silent';
});
const api = server.api;
const shop = useShop(server);

describe('LOG_LEVEL=debug', () => {
  it('logs every statement with the number of its parameters, never their values: no token, hash or code reaches the log', async () => {
    const lines = await captureLog(async () => {
      const saved = await api.post('/api/syndication/config', {
        token: shop.admin.token,
        json: { platform: 'MESSENGER', botToken: BOT_TOKEN, channelId: '-1005550003333', isActive: true },
      });
      expect(saved.status).toBe(201);
      expect((await api.post('/api/auth/forgot-password', { json: { email: shop.agent.email } })).status).toBe(200);
      const guess = await api.post('/api/auth/reset-password', { json: { email: shop.agent.email, token: '000000', newPassword: 'a-new-password-1' } });
      expect(guess.status).toBe(400);
    }, 'debug');
    const statements = lines.filter((line) => line.msg === 'query');
    expect(statements.some((line) => /^insert into "syndication_configs"/.test(String(line.sql)))).toBe(true);
    expect(statements.some((line) => /^update "users" set .*"passwordResetToken"/.test(String(line.sql)))).toBe(true);
    for (const line of statements) {
      expect(Object.keys(line).sort()).toEqual(['level', 'msg', 'parameters', 'sql', 'time']);
      expect(line.parameters).toEqual(expect.any(Number));
    }
    const [agent] = await server.db.select({ password: users.password, resetCodeHash: users.passwordResetToken }).from(users).where(eq(users.id, shop.agent.id));
    const secrets = [BOT_TOKEN.split(':')[1]!, agent!.password, agent!.resetCodeHash!];
    const written = JSON.stringify(lines);
    for (const secret of secrets) expect(written).not.toContain(secret);
  });
});
