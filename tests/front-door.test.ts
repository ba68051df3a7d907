import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };

describe('the front door', () => {
  it('answers GET / with the name, the version of package.json and links to the reference, the document and health', async () => {
    const response = await api.get('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.body).toEqual({
      success: true,
      data: { name: 'Marketplace Listing API', version, links: { docs: '/api/docs', openapi: '/api/openapi.json', health: '/health' } },
    });
    for (const link of Object.values(response.body.data.links as Record<string, string>)) {
      expect((await api.get(link)).status, link).toBe(200);
    }
  });

  it('answers a browser (Accept: text/html) with a page of the name, the version and the three links, which runs no script', async () => {
    const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    for (const pathname of ['/', '/api']) {
      const response = await api.get(pathname, { headers: { accept: browserAccept } });
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('vary')).toBe('Origin, Accept');
      expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none';/);
      expect(response.text).toContain('<title>Marketplace Listing API</title>');
      expect(response.text).toContain(`Version ${version}.`);
      const links = [...response.text.matchAll(/<a href="([^"]+)">/g)].map((match) => match[1]);
      expect(links).toEqual(['/api/docs', '/api/openapi.json', '/health']);
      expect(response.text).not.toContain('<script');
    }
  });

  it('keeps JSON for programs: no Accept, */*, JSON, or JSON ranked above HTML', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.5']) {
      const response = await api.get('/', { headers: accept === undefined ? {} : { accept } });
      expect(response.headers.get('content-type'), accept).toContain('application/json');
      expect(response.headers.get('vary'), accept).toBe('Origin, Accept');
      expect(response.body.data.name, accept).toBe('Marketplace Listing API');
    }
  });

  it('answers GET /api with the same description', async () => {
    const [root, apiRoot] = await Promise.all([api.get('/'), api.get('/api')]);
    expect(apiRoot.status).toBe(200);
    expect(apiRoot.body).toEqual(root.body);
  });

  it('answers a method / does not serve with 405 and the methods it does', async () => {
    const response = await api.post('/', { json: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, OPTIONS');
  });
});

describe('unknown paths', () => {
  it.each(['/nope', '/a/b/c', '/favicon.ico', '/index.html', '/api/nope', '/api/a/b/c', '/api/listings/x/y'])(
    'answers %s with the JSON 404 envelope',
    async (pathname) => {
      const preflight = () => api.send('OPTIONS', pathname, { headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' } });
      for (const send of [() => api.get(pathname), () => api.post(pathname, { json: {} }), () => api.delete(pathname), preflight]) {
        const response = await send();
        expect(response.status, pathname).toBe(404);
        expect(response.headers.get('content-type')).toContain('application/json');
        expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Route not found' });
      }
    },
  );

  it('answers a CORS preflight on a path the service serves, as before', async () => {
    for (const pathname of ['/api/listings', '/health', '/']) {
      const response = await api.send('OPTIONS', pathname, { headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } });
      expect(response.status, pathname).toBe(204);
      expect(response.headers.get('access-control-allow-origin'), pathname).toBe('http://localhost:5173');
      expect(response.headers.get('access-control-allow-methods'), pathname).toContain('POST');
      expect(response.text, pathname).toBe('');
    }
  });

  it('still serves the crawler file and the paths vercel.json rewrites', async () => {
    expect((await api.get('/robots.txt')).status).toBe(200);
    expect((await api.get('/health')).status).toBe(200);
  });
});
