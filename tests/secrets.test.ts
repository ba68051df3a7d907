import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../lib/db/schema.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { buildCategory } from './support/catalog-factories.js';
import { makeTempDir } from './support/databases.js';
import { buildAdmin, type TestUser } from './support/factories.js';
import { apiClient, type ApiClient, type ApiResponse, type RequestOptions } from './support/http.js';
import { startLoopbackBotApi, type LoopbackBotApi } from './support/loopback-bot-api.js';
import { startLoopbackResend, type LoopbackResend } from './support/loopback-resend.js';
import { startTestServer, type TestServer } from './support/test-server.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BOT_TOKEN = '812345678:AAHsecretsTestBotToken_QwErTy0987zx';
const CHANNEL = '-1005550002222';
const AGENT_PASSWORD = 'agent-password-never-echoed';

let server: TestServer;
let api: ApiClient;
let bot: LoopbackBotApi;
let resend: LoopbackResend;
let admin: TestUser;

/** Every response of the walk below: its status line, headers and body, as a client would see them. */
const seen: Array<{ call: string; status: number; text: string }> = [];

function record(call: string, response: ApiResponse): ApiResponse {
  const headers = [...response.headers.entries()].map(([name, value]) => `${name}: ${value}`).join('\n');
  seen.push({ call, status: response.status, text: `${response.status}\n${headers}\n\n${response.text}` });
  return response;
}

async function call(method: string, url: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const response = await api.send(method, url, { ...options, headers: { 'x-forwarded-for': '192.0.2.10', ...options.headers } });
  return record(`${method} ${url}`, response);
}

beforeAll(async () => {
  bot = await startLoopbackBotApi({ token: BOT_TOKEN });
  resend = await startLoopbackResend();
  server = await startTestServer({
    MESSENGER_API_ROOT: bot.apiRoot,
    MESSENGER_BOT_TOKEN: '',
    MESSENGER_CHANNEL_ID: '',
    RESEND_API_KEY: resend.apiKey,
    RESEND_BASE_URL: resend.baseUrl,
    TRUST_PROXY: '1',
  });
  api = apiClient(server.baseUrl);
  admin = await buildAdmin(server.db);
});
afterAll(async () => {
  await server.close();
  await bot.close();
  await resend.close();
});

describe('secrets in responses', () => {
  let resetCode: string;

  beforeAll(async () => {
    const adminLogin = await call('POST', '/api/auth/login', { json: { email: admin.email, password: admin.password } });
    expect(adminLogin.status).toBe(200);
    const adminToken = adminLogin.body.data.token as string;
    const asAdmin = { token: adminToken };

    const issued = await call('POST', '/api/auth/agent-codes', { ...asAdmin, json: { name: 'Secret Keeper', phone: '+15550142', maxUses: 2 } });
    expect(issued.status).toBe(201);
    await call('POST', '/api/auth/verify-agent-code', { json: { code: issued.body.data.code } });
    const agentEmail = `keeper-${crypto.randomBytes(3).toString('hex')}@example.com`;
    const registered = await call('POST', '/api/auth/register', {
      json: { email: agentEmail, password: AGENT_PASSWORD, name: 'Secret Keeper', phone: '+15550142', agentCode: issued.body.data.code },
    });
    expect(registered.status).toBe(201);
    const login = await call('POST', '/api/auth/login', { json: { email: agentEmail, password: AGENT_PASSWORD } });
    expect(login.status).toBe(200);
    await call('POST', '/api/auth/login', { json: { email: agentEmail, password: 'a-wrong-password' } });
    const asAgent = { token: login.body.data.token as string };
    await call('GET', '/api/auth/me', asAgent);
    await call('PUT', '/api/auth/me', { ...asAgent, json: { name: 'Secret Keeper II', website: 'https://keeper.example.com' } });
    await call('GET', '/api/auth/agents', asAdmin);
    await call('GET', '/api/auth/agent-codes', asAdmin);

    const saved = await call('POST', '/api/syndication/config', { ...asAdmin, json: { platform: 'MESSENGER', botToken: BOT_TOKEN, channelId: CHANNEL, isActive: true } });
    expect(saved.status).toBeLessThan(300);
    await call('GET', '/api/syndication/config', asAgent);
    await call('GET', '/api/syndication/config/MESSENGER', asAdmin);
    await call('GET', '/api/syndication/messenger/info', asAgent);
    await call('GET', '/api/public/messenger-bot');
    await call('POST', '/api/syndication/messenger/setup-webhook', asAdmin);
    await call('GET', '/api/syndication/messenger/webhook-info', asAdmin);

    const category = await buildCategory(server.db);
    await call('GET', '/api/categories');
    const listing = await call('POST', '/api/listings', {
      ...asAgent,
      json: { title: 'Sealed phone', price: 450, categoryId: category.id, attributes: { brand: 'Apple', model: 'iPhone 14', storage: '128GB' } },
    });
    expect(listing.status).toBe(201);
    const id = listing.body.data.id as string;
    await settleDeferredWork();
    await call('GET', '/api/listings', asAdmin);
    await call('GET', `/api/listings/${id}`, asAgent);
    await call('PATCH', `/api/listings/${id}`, { ...asAgent, json: { title: 'Sealed phone, boxed' } });
    await settleDeferredWork();
    await call('GET', '/api/public/listings');
    await call('GET', `/api/public/listings/${id}`);
    await call('POST', `/api/public/listings/${id}/inquiry`, { json: { method: 'chat' } });
    await call('GET', '/api/notifications', asAgent);
    await call('GET', '/api/syndication/logs', asAdmin);
    await call('GET', '/api/settings');

    const mailsBefore = resend.sent.length;
    await call('POST', '/api/auth/forgot-password', { json: { email: agentEmail } });
    await settleDeferredWork();
    const mail = resend.sent.slice(mailsBefore).find((email) => email.to.includes(agentEmail));
    resetCode = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(resetCode).toMatch(/^\d{6}$/);
    await call('POST', '/api/auth/forgot-password', { json: { email: 'nobody@example.com' } });
    await call('POST', '/api/auth/reset-password', { json: { email: agentEmail, token: resetCode === '000000' ? '000001' : '000000', newPassword: 'another-password' } });
    await call('GET', '/api/auth/me', asAgent);
  });

  async function storedSecrets(): Promise<Record<string, string>> {
    const rows = await server.db.select({ email: users.email, password: users.password, resetToken: users.passwordResetToken }).from(users);
    const secrets: Record<string, string> = {
      'the bot token': BOT_TOKEN,
      'the secret half of the bot token': BOT_TOKEN.split(':')[1]!,
      JWT_SECRET: process.env.JWT_SECRET!,
      'the hash of the reset code': crypto.createHash('sha256').update(resetCode).digest('hex'),
      "the agent's password": AGENT_PASSWORD,
    };
    for (const row of rows) {
      secrets[`the password hash of ${row.email}`] = row.password;
      if (row.resetToken) secrets[`the stored reset token of ${row.email}`] = row.resetToken;
    }
    return secrets;
  }

  it('walked every route family and kept the secrets it needs to look for', async () => {
    expect(seen.length).toBeGreaterThan(30);
    // Only the two deliberate mistakes fail: the walk reached every handler it meant to.
    expect(seen.filter(({ status }) => status >= 300).map(({ call: request, status }) => `${status} ${request}`)).toEqual([
      '401 POST /api/auth/login',
      '400 POST /api/auth/reset-password',
    ]);
    const secrets = await storedSecrets();
    expect(Object.keys(secrets).filter((name) => name.startsWith('the password hash of'))).toHaveLength(2);
    expect(Object.keys(secrets).some((name) => name.startsWith('the stored reset token of'))).toBe(true);
  });

  it('shows no password hash, reset code, bot token or JWT secret in any body or header', async () => {
    const secrets = await storedSecrets();
    const leaks: string[] = [];
    for (const { call: request, text } of seen) {
      if (/\$2[aby]\$\d{2}\$/.test(text)) leaks.push(`${request}: a bcrypt hash`);
      for (const [name, value] of Object.entries(secrets)) if (text.includes(value)) leaks.push(`${request}: ${name}`);
      if (new RegExp(`(?<![0-9A-Za-z])${resetCode}(?![0-9A-Za-z])`).test(text)) leaks.push(`${request}: the reset code`);
    }
    expect(leaks).toEqual([]);
  });

  it('shows the bot token only masked to its last 4 characters', () => {
    const configs = seen.filter(({ call: request }) => request.includes('/api/syndication/config'));
    expect(configs.length).toBeGreaterThan(0);
    for (const { text } of configs) expect(text).toContain(BOT_TOKEN.slice(-4));
  });
});

describe('token algorithm', () => {
  const secret = () => new TextEncoder().encode(process.env.JWT_SECRET);
  const claims = () => ({ email: admin.email, role: admin.role });

  function me(token: string) {
    return api.get('/api/auth/me', { token });
  }

  function base64url(value: unknown): string {
    return Buffer.from(JSON.stringify(value)).toString('base64url');
  }

  it('accepts an HS256 token signed with the secret', async () => {
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256' }).setSubject(admin.id).setIssuedAt().setExpirationTime('1h').sign(secret());
    const response = await me(token);
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe(admin.id);
  });

  it('refuses an unsigned token (alg none)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ ...claims(), sub: admin.id, iat: now, exp: now + 3600 })}.`;
    expect((await me(token)).body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Invalid token' });
  });

  it('refuses an HS512 token, even one signed with the same secret', async () => {
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS512' }).setSubject(admin.id).setIssuedAt().setExpirationTime('1h').sign(secret());
    const response = await me(token);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Invalid token' });
  });

  it('refuses an RS256 token signed with a key of its own', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256' }).setSubject(admin.id).setIssuedAt().setExpirationTime('1h').sign(privateKey);
    const response = await me(token);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Invalid token' });
  });

  it('refuses an HS256 token signed with another secret', async () => {
    const token = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(admin.id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-that-is-long-enough-for-hs256'));
    expect((await me(token)).body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Invalid token' });
  });
});

describe('JWT_SECRET in production', () => {
  /** Asks for the signing secret in a fresh process with the given environment. */
  function jwtSecretIn(env: Record<string, string | undefined>): Promise<{ status: number | null; stderr: string }> {
    const code = "import { jwtSecret } from './lib/server-secret.js'; jwtSecret();";
    const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...env };
    for (const [name, value] of Object.entries(env)) if (value === undefined) delete childEnv[name];
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: projectRoot, env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on('close', (status) => resolve({ status, stderr }));
    });
  }

  it('refuses to sign or verify without JWT_SECRET when NODE_ENV is production, generating nothing', async () => {
    const dataDir = makeTempDir('secret-production');
    const result = await jwtSecretIn({ NODE_ENV: 'production', JWT_SECRET: undefined, VERCEL: undefined, DATA_DIR: dataDir });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('JWT_SECRET is not set to at least 32 bytes');
    expect(fs.readdirSync(dataDir)).toEqual([]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses the same on the serverless platform', async () => {
    const dataDir = makeTempDir('secret-vercel');
    const result = await jwtSecretIn({ NODE_ENV: 'development', VERCEL: '1', JWT_SECRET: undefined, DATA_DIR: dataDir });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('JWT_SECRET is not set to at least 32 bytes');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a secret under 32 bytes in production', async () => {
    const dataDir = makeTempDir('secret-short');
    const result = await jwtSecretIn({ NODE_ENV: 'production', JWT_SECRET: 'secret', VERCEL: undefined, DATA_DIR: dataDir });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('JWT_SECRET is not set to at least 32 bytes');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts in production once JWT_SECRET is set', async () => {
    const dataDir = makeTempDir('secret-set');
    const result = await jwtSecretIn({ NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-enough-length', VERCEL: undefined, DATA_DIR: dataDir });
    expect(result).toEqual({ status: 0, stderr: '' });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
