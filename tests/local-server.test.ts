import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverRoutes } from '../lib/local-server/route-table.js';
import { projectRoutes, rewriteRoute } from '../lib/platform/rewrites.js';
import { fileLookup, resolvePlatformRoute } from '../lib/platform/routes.js';
import { resolveUpload } from '../lib/platform/static-uploads.js';
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

  it('routes as the platform: a function by its path or folder index, then rewrites in order, parameters in the query', () => {
    const lookup = fileLookup(new Set(routes.map((route) => `api/${route.file}`)));
    const table = projectRoutes([
      { source: '/health', destination: '/api/health' },
      { source: '/api/notifications/:id/read', destination: '/api/notifications/[id]/read?id=:id' },
      { source: '/api/listings/:id', destination: '/api/listings/[id]?id=:id' },
      { source: '/api/:path*', destination: '/api/not-found' },
    ]);
    const resolve = (pathname: string, query = '') => resolvePlatformRoute(table, lookup, pathname, new URLSearchParams(query));
    expect(resolve('/api/notifications/read-all')).toMatchObject({ kind: 'file', name: 'api/notifications/read-all' });
    expect(resolve('/api/listings')).toMatchObject({ kind: 'file', name: 'api/listings/index' });
    expect(resolve('/api/listings/')).toMatchObject({ kind: 'file', name: 'api/listings/index' });
    expect(resolve('/health')).toMatchObject({ kind: 'file', name: 'api/health/index' });
    const read = resolve('/api/notifications/abc/read', 'x=1');
    expect(read).toMatchObject({ kind: 'file', name: 'api/notifications/[id]/read' });
    expect(Object.fromEntries((read as { search: URLSearchParams }).search)).toEqual({ x: '1', id: 'abc' });
    const spaced = resolve('/api/listings/a%20b');
    expect((spaced as { search: URLSearchParams }).search.get('id')).toBe('a b');
    expect(resolve('/api/listings/1/2')).toMatchObject({ kind: 'status', status: 404 });
    expect(resolve('/listings')).toEqual({ kind: 'status', status: 404 });
  });

  it('turns a rewrite into the route the platform writes: one-segment and any-segment parameters, unused ones in the query', () => {
    expect(rewriteRoute({ source: '/api/listings/:id', destination: '/api/listings/[id]?id=:id' })).toEqual({
      src: '^/api/listings(?:/([^/]+?))$',
      dest: '/api/listings/[id]?id=$1',
      check: true,
    });
    expect(rewriteRoute({ source: '/api/:path*', destination: '/api/not-found' })).toEqual({
      src: '^/api(?:/((?:[^/]+?)(?:/(?:[^/]+?))*))?$',
      dest: '/api/not-found?path=$1',
      check: true,
    });
    expect(rewriteRoute({ source: '/api/:path(.*)', destination: '/api/not-found' })).toEqual({
      src: '^/api(?:/(.*))$',
      dest: '/api/not-found?path=$1',
      check: true,
    });
  });
});

describe('vercel.json', () => {
  const config = JSON.parse(fs.readFileSync(path.resolve('vercel.json'), 'utf8')) as { rewrites: Array<{ source: string; destination: string }> };
  const catchAll = config.rewrites.findIndex((rewrite) => rewrite.source === '/:path(.*)');

  it('starts with / onto the service function and ends with a catch-all that gives every unknown path the 404 envelope', () => {
    expect(config.rewrites[0]).toEqual({ source: '/', destination: '/api' });
    expect(config.rewrites.at(-1)).toEqual({ source: '/:path(.*)', destination: '/api/not-found' });
    expect(catchAll).toBe(config.rewrites.length - 1);
  });

  it('rewrites every function with a path parameter to itself before the catch-all, which the platform tries before its own dynamic routes', () => {
    const dynamic = discoverRoutes(path.resolve('api')).filter((route) => route.segments.some((segment) => 'param' in segment));
    expect(dynamic.length).toBeGreaterThan(0);
    for (const route of dynamic) {
      const params = route.segments.flatMap((segment) => ('param' in segment ? [segment.param] : []));
      const expected = { source: route.pattern, destination: `/api/${route.file}?${params.map((name) => `${name}=:${name}`).join('&')}` };
      const index = config.rewrites.findIndex((rewrite) => rewrite.source === route.pattern);
      expect(config.rewrites[index], route.pattern).toEqual(expected);
      expect(index).toBeLessThan(catchAll);
    }
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
  });
});
