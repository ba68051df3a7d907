import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRewrites, discoverRoutes, matchRoute } from '../lib/local-server/route-table.js';
import { resolveUpload } from '../lib/local-server/static-uploads.js';
import { apiClient, type ApiClient } from './support/http.js';
import { makeTempDir } from './support/databases.js';
import { startTestServer, type TestServer } from './support/test-server.js';

function apiTree(files: string[]): string {
  const root = makeTempDir('api');
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), 'export default null;\n');
  }
  return root;
}

describe('route table', () => {
  const root = apiTree([
    'health/index.ts',
    'listings/index.ts',
    'listings/[id].ts',
    'notifications/read-all.ts',
    'notifications/[id]/read.ts',
    'public/listings/[id]/inquiry.ts',
    '_shared.ts',
    'types.d.ts',
  ]);
  const routes = discoverRoutes(root);
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('maps files to paths as the platform does: index files, dynamic segments, no private files', () => {
    expect(routes.map((route) => route.pattern).sort()).toEqual([
      '/api/health',
      '/api/listings',
      '/api/listings/:id',
      '/api/notifications/:id/read',
      '/api/notifications/read-all',
      '/api/public/listings/:id/inquiry',
    ]);
  });

  it('prefers a static segment over a dynamic one and decodes parameters', () => {
    expect(matchRoute(routes, '/api/notifications/read-all')?.route.pattern).toBe('/api/notifications/read-all');
    expect(matchRoute(routes, '/api/notifications/abc/read')).toMatchObject({ params: { id: 'abc' } });
    expect(matchRoute(routes, '/api/listings/a%20b')?.params).toEqual({ id: 'a b' });
    expect(matchRoute(routes, '/api/listings/1/2')).toBeUndefined();
    expect(matchRoute(routes, '/listings')).toBeUndefined();
  });

  it('applies rewrites with named and wildcard segments, first match wins', () => {
    const rewrites = [
      { source: '/health', destination: '/api/health' },
      { source: '/p/:id', destination: '/api/listings/:id' },
      { source: '/api/:path*', destination: '/api/not-found' },
    ];
    expect(applyRewrites(rewrites, '/health')).toBe('/api/health');
    expect(applyRewrites(rewrites, '/p/42')).toBe('/api/listings/42');
    expect(applyRewrites(rewrites, '/api/x/y/z')).toBe('/api/not-found');
    expect(applyRewrites(rewrites, '/other')).toBeUndefined();
  });
});

describe('uploads', () => {
  let server: TestServer;
  let api: ApiClient;
  beforeAll(async () => {
    server = await startTestServer();
    api = apiClient(server.baseUrl);
  });
  afterAll(() => server.close());

  it('never resolves a path outside the upload folder', () => {
    const root = '/srv/uploads';
    expect(resolveUpload(root, '/uploads/a.webp')).toBe('/srv/uploads/a.webp');
    expect(resolveUpload(root, '/uploads/../secret')).toBeUndefined();
    expect(resolveUpload(root, '/uploads/%2e%2e%2fsecret')).toBeUndefined();
    expect(resolveUpload(root, '/uploads/')).toBeUndefined();
    expect(resolveUpload(root, '/uploads/%E0%A4%A')).toBeUndefined();
  });

  it('serves a stored file with its type and answers 404 for a missing one', async () => {
    fs.writeFileSync(path.join(server.uploadDir, 'sample.webp'), Buffer.from('RIFF0000WEBP'));
    const found = await api.get('/uploads/sample.webp');
    expect(found.status).toBe(200);
    expect(found.headers.get('content-type')).toBe('image/webp');
    const missing = await api.get('/uploads/missing.webp');
    expect(missing.status).toBe(404);
    expect(missing.body.success).toBe(false);
  });
});
