import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCategory } from './support/catalog-factories.js';
import { useTestServer } from './support/test-server.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);
const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** The one skip this suite allows: the browser tests need Chromium, and say so in their names when it is missing. */
const browserNote = hasChromium ? '' : ` (skipped: ${CHROMIUM} is not installed)`;

const server = useTestServer();
const api = server.api;
let userDataDir: string | undefined;
let browser: BrowserContext | undefined;

beforeAll(async () => {
  if (hasChromium) {
    userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-browser-'));
    browser = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
  }
});
afterAll(async () => {
  await browser?.close();
  if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
});

describe('GET /api/docs', () => {
  it('serves an HTML page that loads the viewer from this origin only', async () => {
    const response = await api.get('/api/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.text).toContain('<script src="/api/docs/swagger-ui-bundle.js"></script>');
    const external = [...response.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]).filter((url) => !url!.startsWith('/api/docs/'));
    expect(external).toEqual([]);
  });

  it('serves the viewer\'s bundled files with their types', async () => {
    const bundle = await api.get('/api/docs/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(bundle.text).toContain('SwaggerUIBundle');
    const css = await api.get('/api/docs/swagger-ui.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const start = await api.get('/api/docs/start.js');
    expect(start.text).toContain("url: '/api/openapi.json'");
  });

  it('answers 404 for any other file name, reading nothing else from disk', async () => {
    for (const name of ['index.html', '..%2Fpackage.json', 'constructor']) {
      const response = await api.get(`/api/docs/${name}`);
      expect(response.status, name).toBe(404);
      expect(response.body.success, name).toBe(false);
    }
  });
});

describe(`the reference page in a browser${browserNote}`, () => {
  it.skipIf(!hasChromium)('shows the endpoint groups, with every asset from this origin', async () => {
    const page = await browser!.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${server.baseUrl}/api/docs`);
    const groups = page.locator('.opblock-tag-section h3');
    await groups.first().waitFor();
    const names = await groups.allTextContents();
    for (const tag of ['Auth', 'Categories', 'Listings', 'Storefront', 'Channel posting', 'Notifications', 'Settings']) {
      expect(names.some((name) => name.startsWith(tag)), tag).toBe(true);
    }
    expect(requested.filter((url) => !url.startsWith(server.baseUrl) && !url.startsWith('data:'))).toEqual([]);
    await page.close();
  });

  it.skipIf(!hasChromium)('tries GET /api/categories from the page and shows the 200 answer', async () => {
    await buildCategory(server.db, { name: 'DOCS_PAGE_GADGETS', displayName: 'Docs page gadgets' });
    const page = await browser!.newPage();
    await page.goto(`${server.baseUrl}/api/docs`);
    const operation = page.locator('#operations-Categories-getCategories');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/categories');
    await operation.getByRole('button', { name: 'Execute' }).click();
    expect((await answered).status()).toBe(200);
    const shown = operation.locator('.live-responses-table tbody tr.response');
    await expect.poll(() => shown.locator('.response-col_status').textContent()).toContain('200');
    await expect.poll(() => shown.locator('.response-col_description').textContent()).toContain('Docs page gadgets');
    await page.close();
  });
});
