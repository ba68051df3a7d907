import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverRoutes } from '../../lib/local-server/route-table.js';
import { projectRoutes, type Rewrite } from '../../lib/platform/project-routes.js';
import { fileLookup, resolvePlatformRoute, type PlatformRoute } from '../../lib/platform/routes.js';
import { STATIC_FILES } from '../../lib/platform/static-files.js';
import { readBuildOutput } from '../../lib/platform/build-output-server.js';
import { testPostgresUrl } from '../support/databases.js';
import { cacheInvalidationsIn } from '../support/cache-invalidations.js';
import { callInBareProcess, jsonRequest, type BareRequest } from '../support/bare-function.js';
import { apiClient, type ApiClient } from '../support/http.js';
import { imageForm, smallPng } from '../support/images.js';
import { useLoopbackBotApi } from '../support/loopback-bot-api.js';
import { useTestServer } from '../support/test-server.js';

const OUTPUT_DIR = path.resolve('.vercel/output');
if (!testPostgresUrl) throw new Error('The build-output suite needs TEST_DATABASE_URL: deployed functions have no embedded database');
if (!fs.existsSync(path.join(OUTPUT_DIR, 'config.json'))) throw new Error('No build output in .vercel/output: npm run test:deployed builds it first');

const BOT_TOKEN = '123456:deployed-suite-token';
const CHANNEL = '@deployed_channel';
const ADMIN = { email: 'deployed.admin@example.com', password: 'deployed-admin-password' };
const CRON_SECRET = 'deployed-suite-cron-secret';
const output = readBuildOutput(OUTPUT_DIR);
const rewrites = (JSON.parse(fs.readFileSync('vercel.json', 'utf8')) as { rewrites: Rewrite[] }).rewrites;

const bot = useLoopbackBotApi({ token: BOT_TOKEN, channelId: CHANNEL });
const local = useTestServer(() => ({
  ...bot.serverEnv(),
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  CRON_SECRET,
}));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `npm run start:built` in a process of its own, on the test server's database and folders. It
 * serves a copy of the output outside the project: there, as on the platform, a function finds
 * only the packages its own folder carries (inside the project, Node would also find the project's).
 */
async function startBuiltServer(env: Record<string, string> = {}): Promise<{ baseUrl: string; served: string; log: () => string; stop: () => Promise<void> }> {
  const port = await freePort();
  const served = fs.mkdtempSync(path.join(os.tmpdir(), 'build-output-'));
  fs.cpSync(OUTPUT_DIR, served, { recursive: true });
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('scripts/serve-built.ts'), served], {
    // As on the platform: VERCEL set (production settings enforced, the platform's client-IP header
    // trusted); images on local disk, as the test server keeps them. Logging at info shows the
    // cache purges that reach the platform's request context.
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'info', VERCEL: '1', STORAGE_PROVIDER: 'local', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (printed.includes('serving ')) {
        clearInterval(check);
        resolve();
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(check);
      reject(new Error(`the build-output server exited (${code}):\n${printed}`));
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    served,
    log: () => printed,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          fs.rmSync(served, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

let built: Awaited<ReturnType<typeof startBuiltServer>>;
let deployed: ApiClient;
let documentPaths: string[];
let operations: Array<{ method: string; path: string }>;
const SAMPLE_PARAMS: Record<string, string> = { messageId: '1', platform: 'MESSENGER', asset: 'swagger-ui.css', id: '5b0e5b38-5f6b-4f55-9c55-2d0b7c4e2a11', listingId: '5b0e5b38-5f6b-4f55-9c55-2d0b7c4e2a11' };
const concrete = (docPath: string) => docPath.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE_PARAMS[name] ?? 'sample');

beforeAll(async () => {
  built = await startBuiltServer();
  deployed = apiClient(built.baseUrl);
  const doc = (await local.api.get('/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  documentPaths = Object.keys(doc.paths).map(concrete);
  operations = Object.entries(doc.paths).flatMap(([docPath, item]) => Object.keys(item).map((method) => ({ method: method.toUpperCase(), path: concrete(docPath) })));
});
afterAll(() => built?.stop());

describe('routing: the local server and the build output', () => {
  const localFiles = new Set([...discoverRoutes(path.resolve('api')).map((route) => `api/${route.file}`), ...Object.keys(STATIC_FILES)]);
  const builtFiles = new Set([...output.functions, ...output.staticFiles]);
  const EDGE_PATHS = ['/health', '/api', '/api/', '/api/nope', '/api/a/b/c', '/api/listings/', '/api/listings/x/y', '/api/listings/x/', '/api/health.ts', '/robots.txt', '/nope', '/'];

  it('builds the same function and static file names from the same tree', () => {
    expect([...builtFiles].sort()).toEqual([...localFiles].sort());
  });

  it('merges vercel.json rewrites into the build output exactly as the local server merges them', () => {
    expect(output.routes).toEqual(projectRoutes(rewrites, discoverRoutes(path.resolve('api'))));
  });

  it('serves every documented path from the function of its own file, never the catch-all', () => {
    const documented = discoverRoutes(path.resolve('api')).filter((route) => route.pattern !== '/api/not-found');
    for (const route of documented) {
      const pathname = concrete(route.pattern.replace(/:(\w+)/g, '{$1}'));
      const target = resolvePlatformRoute(output.routes, fileLookup(builtFiles), pathname, new URLSearchParams());
      expect(target, pathname).toMatchObject({ kind: 'file', name: `api/${route.file}` });
    }
  });

  it('routes every path of the OpenAPI document, and the edge cases, to the same function with the same query', () => {
    const resolveWith = (routes: PlatformRoute[], files: Set<string>, pathname: string) => {
      const target = resolvePlatformRoute(routes, fileLookup(files), pathname, new URLSearchParams('q=1'));
      return target.kind === 'file' ? { ...target, search: Object.fromEntries(target.search) } : target;
    };
    expect(documentPaths.length).toBeGreaterThan(40);
    for (const pathname of [...documentPaths, ...EDGE_PATHS]) {
      expect(resolveWith(projectRoutes(rewrites, discoverRoutes(path.resolve('api'))), localFiles, pathname), pathname).toEqual(resolveWith(output.routes, builtFiles, pathname));
    }
  });
});

describe('HTTP: every documented operation answers alike from both', () => {
  it.each(['anonymous', 'administrator'])('as %s: same status and error for every method of every path', async (caller) => {
    const token =
      caller === 'administrator' ? ((await local.api.post('/api/auth/login', { json: ADMIN })).body.data.token as string) : undefined;
    const differences: string[] = [];
    expect(operations.length).toBeGreaterThan(50);
    for (const { method, path: pathname } of operations) {
      const options = method === 'GET' || method === 'DELETE' ? { token } : { token, json: {} };
      const fromLocal = await local.api.send(method, pathname, options);
      const fromBuilt = await deployed.send(method, pathname, options);
      const seen = (response: typeof fromLocal) => `${response.status} ${response.body?.error ?? ''}`;
      if (seen(fromLocal) !== seen(fromBuilt)) differences.push(`${method} ${pathname}: local ${seen(fromLocal)}, built ${seen(fromBuilt)}`);
      expect(fromBuilt.status, `${method} ${pathname}`).toBeLessThan(500);
    }
    expect(differences).toEqual([]);
  });

  it('answers every unknown path, inside /api or not and a preflight too, with the 404 envelope, and / with the service', async () => {
    for (const pathname of ['/nope', '/a/b/c', '/favicon.ico', '/api/nope', '/api/a/b/c', '/api/listings/x/y']) {
      const preflight = { headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' } };
      for (const response of [await deployed.get(pathname), await deployed.send('OPTIONS', pathname, preflight)]) {
        expect(response.status, pathname).toBe(404);
        expect(response.body, pathname).toEqual({ success: false, code: 'NOT_FOUND', error: 'Route not found' });
      }
    }
    const root = await deployed.get('/');
    expect(root.status).toBe(200);
    expect(root.body).toEqual((await local.api.get('/')).body);
    expect(root.body.data.links).toEqual({ docs: '/api/docs', openapi: '/api/openapi.json', health: '/health' });
    expect((await deployed.get('/robots.txt')).text).toBe(STATIC_FILES['robots.txt']);
  });
});

describe('the main paths through the build output', () => {
  let token: string;
  let adminId: string;
  beforeAll(async () => {
    const login = await deployed.post('/api/auth/login', { json: ADMIN });
    expect(login.status).toBe(200);
    token = login.body.data.token;
    adminId = login.body.data.user.id;
  });

  it('serves liveness at /health and readiness with the database', async () => {
    expect((await deployed.get('/health')).body.status).toBe('ok');
    expect((await deployed.get('/api/health/ready')).body.checks).toEqual({ database: 'ok' });
  });

  it('serves the API reference page and its assets', async () => {
    const page = await deployed.get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const assets = [...page.text.matchAll(/(?:src|href)="(\/api\/docs\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect((await deployed.get(asset)).status, asset).toBe(200);
  });

  it('creates a listing from a multipart form with a photo, posts it to the channel after answering, and shows it publicly', async () => {
    await deployed.get('/api/admin/seed-categories', { token });
    const phones = ((await deployed.get('/api/categories')).body.data as Array<{ id: string; name: string }>).find((category) => category.name === 'PHONES')!;
    bot.reset();
    const form = imageForm(
      {
        title: 'Deployed iPhone',
        price: '500',
        categoryId: phones.id,
        agentId: adminId,
        attributes: JSON.stringify({ brand: 'Apple', model: 'iPhone 13', storage: '128GB' }),
      },
      [await smallPng()],
    );
    const created = await deployed.post('/api/listings', { token, form });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(created.body.data.images).toHaveLength(1);

    await expect.poll(() => bot.callsTo('sendPhoto').length, { timeout: 10_000 }).toBe(1);
    expect(bot.callsTo('sendPhoto')[0]!.caption).toContain('Deployed iPhone');

    const detail = await deployed.get(`/api/public/listings/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ id, title: 'Deployed iPhone', price: 500 });
    expect(built.log()).not.toContain('FUNCTION_INVOCATION_FAILED');
  });
});

describe('edge caching through the build output', () => {
  const logLines = (text: string) => text.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);

  it('answers a public read with the caching headers, tags and 304 of the local server, and a write purges its tags through the platform context', async () => {
    const token = (await deployed.post('/api/auth/login', { json: ADMIN })).body.data.token as string;
    const before = await deployed.get('/api/settings');
    expect(before.status).toBe(200);
    expect(before.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=60');
    expect(before.headers.get('vercel-cache-tag')).toBe('settings');
    const etag = before.headers.get('etag')!;
    expect((await local.api.get('/api/settings')).headers.get('etag')).toBe(etag);
    expect((await deployed.get('/api/settings', { headers: { 'if-none-match': etag } })).status).toBe(304);

    const logged = built.log().length;
    expect((await deployed.put('/api/settings', { token, json: { siteName: 'Deployed Shop' } })).status).toBe(200);
    await expect.poll(() => cacheInvalidationsIn(logLines(built.log().slice(logged)))).toEqual([['settings']]);
    const after = await deployed.get('/api/settings', { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.body.data.siteName).toBe('Deployed Shop');
  });
});

describe("a deployed function's answer cache", () => {
  let cached: Awaited<ReturnType<typeof startBuiltServer>>;
  let client: ApiClient;
  beforeAll(async () => {
    cached = await startBuiltServer({ ANSWER_CACHE_MS: '60000' });
    client = apiClient(cached.baseUrl);
  });
  afterAll(() => cached?.stop());

  it("is the function's own: a write in another function leaves it until it expires (locally one module graph drops it, tests/answer-cache.test.ts)", async () => {
    const login = await client.post('/api/auth/login', { json: ADMIN });
    const token = login.body.data.token as string;
    await client.get('/api/admin/seed-categories', { token });
    const phones = ((await client.get('/api/categories')).body.data as Array<{ id: string; name: string }>).find((category) => category.name === 'PHONES')!;
    const list = '/api/public/listings?limit=100';
    const before = await client.get(list);
    expect(before.status).toBe(200);

    const created = await client.post('/api/listings', {
      token,
      json: { title: 'Cached away', price: 75, categoryId: phones.id, agentId: login.body.data.user.id, attributes: { brand: 'Apple', model: 'iPhone 12', storage: '64GB' } },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;

    const after = await client.get(list);
    expect(after.body).toEqual(before.body);
    expect((after.body.data as Array<{ id: string }>).map((listing) => listing.id)).not.toContain(id);
    expect((await client.get(`/api/public/listings/${id}`)).body.data).toMatchObject({ id, title: 'Cached away' });
  });
});

describe('the client address on the platform', () => {
  it("is the platform's own header: addresses a client writes into X-Forwarded-For do not reset its sign-in limit", async () => {
    const statuses = [];
    for (let index = 0; index < 12; index += 1) {
      const response = await deployed.post('/api/auth/login', {
        json: { email: 'spoofing@example.com', password: 'wrong-password' },
        headers: { 'x-forwarded-for': `198.18.${index}.1`, 'x-real-ip': `198.18.${index}.2` },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
  });
});

describe('what each deployed function carries', () => {
  const carried = (name: string, pkg: string) => fs.existsSync(path.join(OUTPUT_DIR, 'functions', `${name}.func`, 'node_modules', pkg));

  it('never carries the embedded database', () => {
    expect(output.functions.filter((name) => carried(name, '@electric-sql'))).toEqual([]);
  });

  it('has the query builder and the validation compiled into its bundle, not carried as packages', () => {
    expect(output.functions.filter((name) => carried(name, 'drizzle-orm') || carried(name, 'valibot'))).toEqual([]);
  });

  it.each([
    ['the image library', 'sharp'],
    ['the bot client', 'grammy'],
    ['the image host SDK', 'cloudinary'],
    ['the reference page assets', 'swagger-ui-dist'],
  ])('keeps %s out of health and the public reads', (_label, pkg) => {
    const light = ['api/health/index', 'api/health/ready', 'api/public/listings/index', 'api/public/listings/[id]', 'api/public/filter-options', 'api/categories/index', 'api/categories/[id]', 'api/settings/index', 'api/auth/login'];
    expect(light.filter((name) => carried(name, pkg))).toEqual([]);
  });
});

describe("every function under the platform's plain Node launcher", () => {
  const UNKNOWN = '5b0e5b38-5f6b-4f55-9c55-2d0b7c4e2a11';
  type Caller = 'anonymous' | 'administrator' | 'scheduler';
  interface Probe {
    request: Omit<BareRequest, 'url' | 'headers' | 'body'> & { path: string; json?: unknown; csv?: string };
    caller: Caller;
    /** The answer that shows the call reached the database (or, for the few that never do, its simplest answer). */
    status: number;
  }
  const get = (path: string, caller: Caller, status: number): Probe => ({ request: { method: 'GET', path }, caller, status });
  const send = (method: string, path: string, json: unknown, caller: Caller, status: number): Probe => ({ request: { method, path, json }, caller, status });
  const sendCsv = (path: string, csv: string, caller: Caller, status: number): Probe => ({ request: { method: 'POST', path, csv }, caller, status });
  /** A request with a CSV body, its type and length declared. */
  const csvRequest = (method: string, url: string, csv: string, headers: Record<string, string>): BareRequest => ({
    method,
    url,
    headers: { ...headers, 'content-type': 'text/csv', 'content-length': String(Buffer.byteLength(csv)) },
    body: csv,
  });

  /** One request per function, by its name in the build output. */
  const PROBES: Record<string, Probe> = {
    'api/admin/audit': get('/api/admin/audit', 'administrator', 200),
    'api/admin/seed-categories': get('/api/admin/seed-categories', 'administrator', 200),
    'api/auth/agent-codes/[id]': send('DELETE', `/api/auth/agent-codes/[id]?id=${UNKNOWN}`, undefined, 'administrator', 404),
    'api/auth/agent-codes/index': get('/api/auth/agent-codes', 'administrator', 200),
    'api/auth/agents/[id]': send('DELETE', `/api/auth/agents/[id]?id=${UNKNOWN}`, undefined, 'administrator', 404),
    'api/auth/agents/index': get('/api/auth/agents', 'administrator', 200),
    'api/auth/forgot-password': send('POST', '/api/auth/forgot-password', { email: 'nobody@example.com' }, 'anonymous', 200),
    'api/auth/login': send('POST', '/api/auth/login', ADMIN, 'anonymous', 200),
    'api/auth/me': get('/api/auth/me', 'administrator', 200),
    'api/auth/register': send('POST', '/api/auth/register', { name: 'Bare', email: 'bare@example.com', password: 'bare-password-1', code: 'NOSUCHCODE' }, 'anonymous', 400),
    'api/auth/reset-password': send('POST', '/api/auth/reset-password', { email: 'nobody@example.com', code: '123456', newPassword: 'new-password-1' }, 'anonymous', 400),
    'api/auth/verify-agent-code': send('POST', '/api/auth/verify-agent-code', { code: 'NOSUCHCODE' }, 'anonymous', 400),
    'api/categories/[id]': get(`/api/categories/[id]?id=${UNKNOWN}`, 'anonymous', 404),
    'api/categories/index': get('/api/categories', 'anonymous', 200),
    'api/commissions/asset-stats': get('/api/commissions/asset-stats', 'administrator', 200),
    'api/commissions/listing/[id]': send('PATCH', `/api/commissions/listing/[id]?id=${UNKNOWN}`, { commissionPercent: 5 }, 'administrator', 404),
    'api/commissions/listings': get('/api/commissions/listings', 'administrator', 200),
    'api/commissions/summary': get('/api/commissions/summary', 'administrator', 200),
    'api/cron/sweep': get('/api/cron/sweep', 'scheduler', 200),
    'api/docs/[asset]': get('/api/docs/[asset]?asset=swagger-ui.css', 'anonymous', 200),
    'api/docs/index': get('/api/docs', 'anonymous', 200),
    'api/health/index': get('/api/health', 'anonymous', 200),
    'api/health/ready': get('/api/health/ready', 'anonymous', 200),
    'api/index': get('/api', 'anonymous', 200),
    'api/listings/[id]': get(`/api/listings/[id]?id=${UNKNOWN}`, 'administrator', 404),
    'api/listings/[id]/restore': send('POST', `/api/listings/[id]/restore?id=${UNKNOWN}`, undefined, 'administrator', 404),
    'api/listings/export': get('/api/listings/export', 'administrator', 200),
    // A dry run naming a listing that does not exist: the file is read and checked against the database, nothing written.
    'api/listings/import': sendCsv('/api/listings/import?dryRun=true', `id,price\r\n${UNKNOWN},5\r\n`, 'administrator', 200),
    'api/listings/index': get('/api/listings', 'administrator', 200),
    'api/not-found': get('/api/not-found', 'anonymous', 404),
    'api/notifications/[id]/read': send('PUT', `/api/notifications/[id]/read?id=${UNKNOWN}`, undefined, 'administrator', 404),
    'api/notifications/index': get('/api/notifications', 'administrator', 200),
    'api/notifications/read-all': send('PUT', '/api/notifications/read-all', undefined, 'administrator', 200),
    'api/openapi.json': get('/api/openapi.json', 'anonymous', 200),
    'api/public/filter-options': get('/api/public/filter-options', 'anonymous', 200),
    'api/public/listings/[id]': get(`/api/public/listings/[id]?id=${UNKNOWN}`, 'anonymous', 404),
    'api/public/listings/[id]/inquiry': send('POST', `/api/public/listings/[id]/inquiry?id=${UNKNOWN}`, { method: 'chat' }, 'anonymous', 404),
    'api/public/listings/index': get('/api/public/listings', 'anonymous', 200),
    'api/public/messenger-bot': get('/api/public/messenger-bot', 'anonymous', 200),
    'api/public/suggest': get('/api/public/suggest?q=iph', 'anonymous', 200),
    'api/settings/index': get('/api/settings', 'anonymous', 200),
    'api/setup': get('/api/setup', 'anonymous', 404),
    'api/syndication/config/[platform]': get('/api/syndication/config/[platform]?platform=MESSENGER', 'administrator', 200),
    'api/syndication/config/index': get('/api/syndication/config', 'administrator', 200),
    'api/syndication/delete-message/[messageId]': send('POST', '/api/syndication/delete-message/[messageId]?messageId=1', {}, 'administrator', 404),
    'api/syndication/edit-message/[messageId]': send('POST', '/api/syndication/edit-message/[messageId]?messageId=1', { caption: 'Edited' }, 'administrator', 404),
    'api/syndication/health': get('/api/syndication/health', 'administrator', 200),
    'api/syndication/logs': get('/api/syndication/logs', 'administrator', 200),
    'api/syndication/messenger/info': get('/api/syndication/messenger/info', 'administrator', 200),
    'api/syndication/messenger/setup-webhook': send('POST', '/api/syndication/messenger/setup-webhook', undefined, 'administrator', 200),
    'api/syndication/messenger/webhook-info': get('/api/syndication/messenger/webhook-info', 'administrator', 200),
    'api/syndication/messenger/webhook': send('POST', '/api/syndication/messenger/webhook', { update_id: 1 }, 'anonymous', 401),
    'api/syndication/retry/[id]': send('POST', `/api/syndication/retry/[id]?id=${UNKNOWN}`, undefined, 'administrator', 404),
    'api/syndication/trigger/[listingId]': send('POST', `/api/syndication/trigger/[listingId]?listingId=${UNKNOWN}`, undefined, 'administrator', 404),
    'api/uploads/signature': send('POST', '/api/uploads/signature', { fileName: 'photo.jpg', contentType: 'image/jpeg', size: 1000 }, 'administrator', 200),
  };

  let adminToken: string;
  beforeAll(async () => {
    adminToken = (await local.api.post('/api/auth/login', { json: ADMIN })).body.data.token as string;
  });

  it('has a probe for every function the build writes', () => {
    expect(Object.keys(PROBES).sort()).toEqual([...output.functions].sort());
  });

  it.each(Object.keys(PROBES))('%s loads and answers in a bare node process', async (name) => {
    const { request, caller, status } = PROBES[name]!;
    const headers: Record<string, string> = {};
    if (caller === 'administrator') headers.authorization = `Bearer ${adminToken}`;
    if (caller === 'scheduler') headers.authorization = `Bearer ${CRON_SECRET}`;
    const url = `http://localhost${request.path}`;
    const answer = await callInBareProcess(
      path.join(built.served, 'functions', `${name}.func`),
      request.csv !== undefined
        ? csvRequest(request.method, url, request.csv, headers)
        : request.json === undefined
          ? { method: request.method, url, headers }
          : jsonRequest(request.method, url, request.json, headers),
      // As on the platform: images go to the image host (the build's CLOUDINARY_URL).
      { ...process.env, VERCEL: '1', STORAGE_PROVIDER: 'cloudinary', LOG_LEVEL: 'error' },
    ).catch((error: unknown) => {
      throw new Error(`${name} could not load or answer under plain Node: ${error instanceof Error ? error.message : String(error)}`);
    });
    // The body is shown only when the status is not the one expected, to say why.
    expect({ name, status: answer.status, body: answer.status === status ? undefined : answer.body, stderr: answer.stderr }).toEqual({ name, status, body: undefined, stderr: '' });
  });
});

describe('a deployed function that cannot start', () => {
  const call = (name: string, request: BareRequest, env: NodeJS.ProcessEnv) =>
    callInBareProcess(path.join(built.served, 'functions', `${name}.func`), request, { ...process.env, VERCEL: '1', LOG_LEVEL: 'silent', ...env });
  const envelope = (answer: { status: number; body: string }) => ({ status: answer.status, body: JSON.parse(answer.body) as unknown });

  it('answers 503 in the envelope naming DATABASE_URL when it is not set', async () => {
    const answer = await call('api/public/listings/index', { method: 'GET', url: 'http://localhost/api/public/listings' }, { DATABASE_URL: '' });
    expect(envelope(answer)).toEqual({ status: 503, body: { success: false, code: 'DEPENDENCY_UNAVAILABLE', error: 'Service unavailable: DATABASE_URL is not set' } });
  });

  it('answers 503 in the envelope saying the database is unreachable when nothing answers at its address', async () => {
    const answer = await call('api/categories/index', { method: 'GET', url: 'http://localhost/api/categories' }, { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(envelope(answer)).toEqual({ status: 503, body: { success: false, code: 'DEPENDENCY_UNAVAILABLE', error: 'Service unavailable: the database is unreachable' } });
  });

  it('answers 503 in the envelope naming JWT_SECRET when it is missing', async () => {
    const answer = await call('api/auth/login', jsonRequest('POST', 'http://localhost/api/auth/login', ADMIN), { JWT_SECRET: '' });
    expect(envelope(answer)).toEqual({ status: 503, body: { success: false, code: 'DEPENDENCY_UNAVAILABLE', error: 'Service unavailable: JWT_SECRET is not set to at least 32 bytes' } });
  });
});
