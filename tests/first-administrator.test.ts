import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { issueSetupLink } from '../lib/auth/setup-links.js';
import { passwordMatches } from '../lib/auth/passwords.js';
import { setupLinks, users } from '../lib/db/schema.js';
import { expectTooMany } from './support/refusals.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer({ TRUST_PROXY: '1' });
const api = server.api;

const NOT_FOUND = { success: false, code: 'NOT_FOUND', error: 'Route not found' };

/** Each test speaks from an address of its own, so the page's per-address budget is its own too. */
function from(address: string) {
  const headers = { 'x-forwarded-for': address };
  return {
    open: (token?: string) => api.get(token === undefined ? '/setup' : `/setup?token=${token}`, { headers }),
    submit: (token: string, fields: Record<string, string>) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      return api.post(`/setup?token=${token}`, { form, headers });
    },
  };
}

async function administrators() {
  return server.db.select({ email: users.email, name: users.name, password: users.password }).from(users).where(eq(users.role, 'SUPER_ADMIN'));
}

async function liveLinks(): Promise<number> {
  const [row] = await server.db.select({ count: sql<number>`count(*)::int` }).from(setupLinks);
  return row!.count;
}

describe('while no administrator exists', () => {
  it('answers /setup without a token, with a malformed one or an unknown one as it answers an unknown path', async () => {
    const browser = from('198.51.100.1');
    await issueSetupLink(server.db);
    for (const token of [undefined, 'nope', crypto.randomBytes(32).toString('base64url')]) {
      const response = await browser.open(token);
      expect(response.status, token).toBe(404);
      expect(response.body, token).toEqual(NOT_FOUND);
      expect((await browser.submit(token ?? '', { email: 'x@example.com', name: 'X', password: 'long-enough' })).body).toEqual(NOT_FOUND);
    }
    expect(await administrators()).toEqual([]);
  });

  it('opens the form through a live link, in a page that runs no script and posts only here', async () => {
    const token = await issueSetupLink(server.db);
    const response = await from('198.51.100.2').open(token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'/);
    expect(response.text).toContain('<form method="post" enctype="multipart/form-data">');
    for (const field of ['email', 'name', 'password']) expect(response.text).toContain(`name="${field}"`);
    expect(response.text).not.toContain(token);
  });

  it("answers a bad e-mail, a short password or an empty name with create-admin's messages beside the fields, keeping the link", async () => {
    const browser = from('198.51.100.3');
    const token = await issueSetupLink(server.db);
    const refused = await browser.submit(token, { email: 'not-an-address', name: ' ', password: 'short' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(refused.text).toContain('<p class="error" id="email-error">must be a valid e-mail address</p>');
    expect(refused.text).toContain('<p class="error" id="password-error">must be at least 8 characters</p>');
    expect(refused.text).toContain('<p class="error" id="name-error">must not be empty</p>');
    expect(refused.text).toContain('value="not-an-address"');
    expect(refused.text).not.toContain('short');
    const missing = await browser.submit(token, {});
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('<p class="error" id="email-error">is required</p>');
    expect(await administrators()).toEqual([]);
    expect((await browser.open(token)).status).toBe(200);
  });

  it('answers 404 to a link whose hour has passed, and forgets it when the next one is made', async () => {
    const browser = from('198.51.100.4');
    const token = await issueSetupLink(server.db);
    await server.db.update(setupLinks).set({ expiresAt: sql`now() - interval '1 second'` });
    expect((await browser.open(token)).body).toEqual(NOT_FOUND);
    expect((await browser.submit(token, { email: 'late@example.com', name: 'Late', password: 'long-enough' })).body).toEqual(NOT_FOUND);
    expect(await administrators()).toEqual([]);
    await issueSetupLink(server.db);
    expect(await liveLinks()).toBe(1);
  });

  it('limits a stranger trying tokens to 20 requests per 15 minutes per address, then 429 with Retry-After', async () => {
    const stranger = from('198.51.100.5');
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expect((await stranger.open(crypto.randomBytes(32).toString('base64url'))).status).toBe(404);
    }
    expectTooMany(await stranger.open(await issueSetupLink(server.db)));
    expectTooMany(await stranger.submit(crypto.randomBytes(32).toString('base64url'), { email: 'x@example.com', name: 'X', password: 'long-enough' }));
    expect((await from('198.51.100.6').open(crypto.randomBytes(32).toString('base64url'))).status).toBe(404);
  });
});

describe('the first administrator', () => {
  const owner = from('198.51.100.10');
  let spent: string;

  it('is made by the form as a SUPER_ADMIN who signs in; two links sent at once make one', async () => {
    const [first, second] = [await issueSetupLink(server.db), await issueSetupLink(server.db)];
    const answers = await Promise.all([
      owner.submit(first, { email: ' Owner@Example.com ', name: 'Owner', password: 'owner-password' }),
      owner.submit(second, { email: 'other@example.com', name: 'Other', password: 'other-password' }),
    ]);
    const made = answers.find((answer) => answer.status === 201);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 404]);
    expect(answers.find((answer) => answer.status === 404)!.body).toEqual(NOT_FOUND);
    const admins = await administrators();
    expect(admins).toHaveLength(1);
    const [admin] = admins;
    expect(made!.text).toContain(`<strong>${admin!.email}</strong> is the store's administrator`);
    expect(await passwordMatches(admin!.email === 'owner@example.com' ? 'owner-password' : 'other-password', admin!.password)).toBe(true);
    spent = admin!.email === 'owner@example.com' ? first : second;
    expect(await liveLinks()).toBe(0);
    const login = await api.post('/api/auth/login', {
      json: { email: admin!.email, password: admin!.email === 'owner@example.com' ? 'owner-password' : 'other-password' },
    });
    expect(login.status).toBe(200);
    expect(login.body.data.user).toMatchObject({ email: admin!.email, name: admin!.name, role: 'SUPER_ADMIN' });
  });

  it('spends the link: opened or sent again, it answers 404 each time', async () => {
    for (let time = 0; time < 2; time += 1) {
      expect((await owner.open(spent)).body).toEqual(NOT_FOUND);
      expect((await owner.submit(spent, { email: 'again@example.com', name: 'Again', password: 'long-enough' })).body).toEqual(NOT_FOUND);
    }
    expect(await administrators()).toHaveLength(1);
  });

  it('closes the page for good: a link made after an administrator exists answers 404', async () => {
    const token = await issueSetupLink(server.db);
    expect((await owner.open(token)).body).toEqual(NOT_FOUND);
    expect((await owner.submit(token, { email: 'late@example.com', name: 'Late', password: 'long-enough' })).body).toEqual(NOT_FOUND);
    expect(await administrators()).toHaveLength(1);
  });
});
