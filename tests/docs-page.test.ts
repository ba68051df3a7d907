import { describe, expect, it } from 'vitest';
import { BROWSER_TEST, hasChromium, NO_CHROMIUM, useBrowser } from './support/browser.js';
import { buildCategory } from './support/catalog-factories.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
const browser = useBrowser();

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

describe('the reference page in a browser', () => {
  it('shows the endpoint groups, with every asset from this origin', BROWSER_TEST, async (ctx) => {
    ctx.skip(!hasChromium, NO_CHROMIUM);
    const page = await browser.context.newPage();
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

  it('tries GET /api/categories from the page and shows the 200 answer', BROWSER_TEST, async (ctx) => {
    ctx.skip(!hasChromium, NO_CHROMIUM);
    await buildCategory(server.db, { name: 'DOCS_PAGE_GADGETS', displayName: 'Docs page gadgets' });
    const page = await browser.context.newPage();
    await page.goto(`${server.baseUrl}/api/docs`);
    const operation = page.locator('#operations-Categories-getCategories');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/categories');
    await operation.getByRole('button', { name: 'Execute' }).click();
    expect((await answered).status()).toBe(200);
    const shown = operation.locator('.live-responses-table tbody tr.response');
    await expect.poll(() => shown.locator('.response-col_status').textContent(), { timeout: 30_000 }).toContain('200');
    await expect.poll(() => shown.locator('.response-col_description').textContent(), { timeout: 30_000 }).toContain('Docs page gadgets');
    await page.close();
  });
});
