import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverRoutes } from '../lib/local-server/route-table.js';
import { buildRoutes, projectRoutes } from '../lib/platform/project-routes.js';
import { fileLookup, resolvePlatformRoute, type PlatformRoute } from '../lib/platform/routes.js';
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

  it('routes as the platform: a function by its path or folder index, then rewrites, then path parameters in the query', () => {
    const lookup = fileLookup(new Set(routes.map((route) => `api/${route.file}`)));
    const table = projectRoutes([{ source: '/health', destination: '/api/health' }], routes);
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

  describe("follows each rule of the platform's router", () => {
    const lookup = fileLookup(new Set(routes.map((route) => `api/${route.file}`)));
    const resolve = (table: PlatformRoute[], pathname: string, method = 'GET') => resolvePlatformRoute(table, lookup, pathname, new URLSearchParams(), method);
    const project = projectRoutes([{ source: '/health', destination: '/api/health' }], routes);

    it('matches a source ignoring case, unless the route is case-sensitive; a file name keeps its case', () => {
      expect(resolve(project, '/HEALTH')).toMatchObject({ kind: 'file', name: 'api/health/index' });
      const read = resolve(project, '/API/Notifications/abc/READ');
      expect(read).toMatchObject({ kind: 'file', name: 'api/notifications/[id]/read' });
      expect((read as { search: URLSearchParams }).search.get('id')).toBe('abc');
      const strict: PlatformRoute[] = [{ src: '^/health$', dest: '/api/health', caseSensitive: true }];
      expect(resolve(strict, '/HEALTH')).toEqual({ kind: 'status', status: 404 });
      expect(resolve(strict, '/health')).toMatchObject({ kind: 'file', name: 'api/health/index' });
      expect(resolve([], '/API/HEALTH')).toEqual({ kind: 'status', status: 404 });
    });

    it('applies a route with methods to those methods only', () => {
      const table: PlatformRoute[] = [{ src: '^/ping$', dest: '/api/health', methods: ['POST'] }, { src: '^/ping$', status: 405 }];
      expect(resolve(table, '/ping', 'POST')).toMatchObject({ kind: 'file', name: 'api/health/index' });
      expect(resolve(table, '/ping', 'GET')).toEqual({ kind: 'status', status: 405 });
    });

    it('goes on past a route that continues, keeping its headers and destination; a later header of the same name wins', () => {
      const table: PlatformRoute[] = [
        { src: '^/(.*)$', headers: { 'X-Shop': 'main', 'X-Seen': '$1' }, continue: true },
        { src: '^/old/(.*)$', dest: '/$1', continue: true },
        { src: '^/health$', dest: '/api/health', headers: { 'x-shop': 'health' } },
      ];
      expect(resolve(table, '/old/health')).toEqual({
        kind: 'file',
        name: 'api/health/index',
        search: new URLSearchParams(),
        headers: { 'x-shop': 'health', 'x-seen': 'old/health' },
      });
    });

    it('answers a status route with its status, and a route with a Location with its redirect', () => {
      expect(resolve([{ src: '^/gone$', status: 410 }], '/gone')).toEqual({ kind: 'status', status: 410 });
      expect(resolve([{ src: '^/(.*)/$', headers: { Location: '/$1' }, status: 308 }], '/api/listings/')).toEqual({ kind: 'redirect', status: 308, location: '/api/listings' });
    });

    it('gives a checked destination that is no file to the miss routes, and an unchecked one the 404', () => {
      const table = (check: boolean): PlatformRoute[] => [
        { handle: 'filesystem' },
        { src: '^/h$', dest: '/api/nothing-here', check },
        { handle: 'miss' },
        { src: '^/api/nothing-here$', dest: '/api/health', check: true },
      ];
      expect(resolve(table(true), '/h')).toMatchObject({ kind: 'file', name: 'api/health/index' });
      expect(resolve(table(false), '/h')).toEqual({ kind: 'status', status: 404 });
    });
  });

  it('serves each function with path parameters at its pattern, then gives every other path the not-found function', () => {
    expect(buildRoutes(routes)).toEqual([
      { handle: 'filesystem' },
      { src: String.raw`^\/api\/public\/listings(?:\/([^\/]+?))\/inquiry$`, dest: '/api/public/listings/[id]/inquiry?id=$1', check: true },
      { src: String.raw`^\/api\/listings(?:\/([^\/]+?))$`, dest: '/api/listings/[id]?id=$1', check: true },
      { src: String.raw`^\/api\/notifications(?:\/([^\/]+?))\/read$`, dest: '/api/notifications/[id]/read?id=$1', check: true },
      { src: String.raw`^(?:\/(.*))$`, dest: '/api/not-found?path=$1', check: true },
      { src: '^/api(/.*)?$', status: 404 },
      { handle: 'miss' },
      { src: String.raw`^/api/(.+)(?:\.(?:ts))$`, dest: '/api/$1', check: true },
    ]);
  });

  it("puts vercel.json's rewrites before the functions' own routes, as the platform merges them", () => {
    const table = projectRoutes([{ source: '/health', destination: '/api/health' }], routes);
    const filesystem = table.findIndex((route) => 'handle' in route && route.handle === 'filesystem');
    expect(table[filesystem + 1]).toEqual({ src: '^/health$', dest: '/api/health', check: true });
    expect(table[filesystem + 2]).toEqual(buildRoutes(routes)[1]);
  });
});

describe('vercel.json', () => {
  const config = JSON.parse(fs.readFileSync(path.resolve('vercel.json'), 'utf8')) as { rewrites: Array<{ source: string; destination: string }> };

  it('starts with / onto the service function and rewrites no function onto itself: the build routes path parameters and unknown paths', () => {
    expect(config.rewrites[0]).toEqual({ source: '/', destination: '/api' });
    for (const rewrite of config.rewrites) {
      expect(rewrite.destination, rewrite.source).not.toContain('[');
      expect(rewrite.destination, rewrite.source).not.toBe('/api/not-found');
    }
  });

  it('merges into routes that use only the router rules the servers follow: no has or missing, no hit, rewrite or resource phase', () => {
    const merged = projectRoutes(config.rewrites, discoverRoutes(path.resolve('api')));
    expect(merged.filter((route) => 'handle' in route).map((route) => ('handle' in route ? route.handle : undefined))).toEqual(['filesystem', 'miss']);
    expect(merged.filter((route) => 'has' in route || 'missing' in route)).toEqual([]);
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
