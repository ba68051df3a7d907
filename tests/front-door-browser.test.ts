import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { issueSetupLink } from '../lib/auth/setup-links.js';
import { users } from '../lib/db/schema.js';
import { BROWSER_TEST, hasChromium, NO_CHROMIUM, useBrowser } from './support/browser.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
const browser = useBrowser();

describe('a first start, in a browser', () => {
  it('opens / as a page naming the service and its version, whose links lead to the reference page', BROWSER_TEST, async (ctx) => {
    ctx.skip(!hasChromium, NO_CHROMIUM);
    const page = await browser.context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${server.baseUrl}/`);
    expect(await page.locator('h1').textContent()).toBe('Marketplace Listing API');
    expect(await page.locator('body').textContent()).toMatch(/Version \d+\.\d+\.\d+\./);
    expect(await page.locator('a').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual(['/api/docs', '/api/openapi.json', '/health']);
    expect(requested.filter((url) => !url.startsWith(`${server.baseUrl}/`))).toEqual([]);
    await page.getByRole('link', { name: 'API reference' }).click();
    await page.waitForURL(`${server.baseUrl}/api/docs`);
    await page.locator('.opblock-tag-section h3').first().waitFor();
    await page.close();
  });

  it('makes the first administrator through the printed link, who then signs in through the API', BROWSER_TEST, async (ctx) => {
    ctx.skip(!hasChromium, NO_CHROMIUM);
    const link = `${server.baseUrl}/setup?token=${await issueSetupLink(server.db)}`;
    const page = await browser.context.newPage();
    await page.goto(link);
    expect(await page.locator('h1').textContent()).toBe('Make the first administrator');

    // An address the browser lets through but the administrator rules do not: the page says why, and keeps it.
    await page.getByLabel('E-mail').fill('owner@localhost');
    await page.getByLabel('Name').fill('Shop Owner');
    await page.getByLabel(/^Password/).fill('a-long-password');
    await page.getByRole('button', { name: 'Create the administrator' }).click();
    await page.locator('#email-error').waitFor();
    expect(await page.locator('#email-error').textContent()).toBe('must be a valid e-mail address');
    expect(await page.getByLabel('E-mail').inputValue()).toBe('owner@localhost');
    expect(await page.getByLabel('Name').inputValue()).toBe('Shop Owner');

    await page.getByLabel('E-mail').fill('owner@example.com');
    await page.getByLabel(/^Password/).fill('a-long-password');
    await page.getByRole('button', { name: 'Create the administrator' }).click();
    await page.getByRole('heading', { name: 'Administrator created' }).waitFor();
    expect(await page.locator('body').textContent()).toContain('owner@example.com is the store\'s administrator');

    const [account] = await server.db.select({ role: users.role, name: users.name }).from(users).where(eq(users.email, 'owner@example.com'));
    expect(account).toEqual({ role: 'SUPER_ADMIN', name: 'Shop Owner' });
    const login = await api.post('/api/auth/login', { json: { email: 'owner@example.com', password: 'a-long-password' } });
    expect(login.status).toBe(200);
    expect(login.body.data.user).toMatchObject({ email: 'owner@example.com', role: 'SUPER_ADMIN' });

    const again = await page.goto(link);
    expect(again?.status()).toBe(404);
    await page.close();
  });
});
