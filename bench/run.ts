import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import sharp from 'sharp';
import { measureColdStarts } from './cold-start.js';
import { measureDeployedFunctions } from './deployed-functions.js';
import { firstDifference, type AnswerKind } from './same-answers.js';
import { benchScale } from './scale.js';
import { compile, SERVICE_PORT, SERVICE_URL, startService as startServiceWith, stopChild, waitForHttp, type Service } from './service.js';

const USAGE = `Usage: npm run bench -- [--listings N] [--duration S] [--connections C] [--sections load,cold,deployed,logins,memory,scale,photos]
Runs against BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/mkt_bench), seeding it up to N listings.
The scale section runs against BENCH_SCALE_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/mkt_scale), seeding
1,000,000 listings there when it has fewer.`;

const { values: options } = parseArgs({
  options: {
    listings: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    sections: { type: 'string', default: 'load,cold,deployed,logins,memory,scale,photos' },
    help: { type: 'boolean' },
  },
});
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}

const LISTINGS = Number(options.listings);
const DURATION = Number(options.duration);
const CONNECTIONS = Number(options.connections);
const SECTIONS = new Set(options.sections.split(','));
const FLOOR_PORT = SERVICE_PORT + 1;
const FLOOR_URL = `http://127.0.0.1:${FLOOR_PORT}`;
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/mkt_bench';
const scaleDatabaseUrl = process.env.BENCH_SCALE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/mkt_scale';
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-bench-'));

const benchEnv: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: 'production',
  DATABASE_URL: databaseUrl,
  DATABASE_DRIVER: 'pg',
  JWT_SECRET: 'benchmark-secret-benchmark-secret-benchmark',
  BCRYPT_ROUNDS: '10',
  STORAGE_PROVIDER: 'local',
  UPLOAD_DIR: path.join(workDir, 'uploads'),
  DATA_DIR: path.join(workDir, 'data'),
  ADMIN_EMAIL: '',
  MESSENGER_BOT_TOKEN: '',
  LOG_LEVEL: 'silent',
  // Image URLs are absolute on this prefix, which the floor is given too, so both answers compare.
  API_BASE_URL: SERVICE_URL,
};
Object.assign(process.env, benchEnv);

async function ensureDatabase(): Promise<void> {
  const target = new URL(databaseUrl);
  const name = target.pathname.slice(1);
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
  if (!rowCount) await client.query(`create database "${name.replace(/"/g, '')}"`);
  await client.end();
}

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

function runScript(script: string, args: string[]): void {
  execFileSync(process.execPath, ['--import', 'tsx', script, ...args], { env: benchEnv, stdio: 'inherit' });
}

/** The compiled local server over the benchmark database, with `env` added. */
function startService(env: NodeJS.ProcessEnv): Promise<Service> {
  return startServiceWith({ ...benchEnv, ...env });
}

/** The straightforward floor (bench/floor.mjs: node:http, one pg pool, the obvious SQL), on the same database. */
async function startFloor(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['bench/floor.mjs'], {
    env: { ...benchEnv, PORT: String(FLOOR_PORT), FLOOR_PG_FROM: process.cwd(), API_BASE_URL: SERVICE_URL },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await waitForHttp(`${FLOOR_URL}/health`);
  return child;
}

/** A request both servers answer, compared item by item before their speed is. */
interface Scenario {
  name: string;
  path: string;
  kind: AnswerKind;
  /** The service's token; the floor reads without one. */
  token?: string;
  /** When given, each request takes one of these paths at random instead of `path` (which is among them). */
  paths?: string[];
}

/** The storefront's page size. */
const BROWSE_PAGE_SIZE = 24;
const BROWSE_PAGES = 50;
const BROWSE_PRICE_CEILINGS = [100, 250, 500, 1_000, 2_000];
/** Answers compared between the service and the floor before a browse run: a sample of its paths. */
const BROWSE_COMPARED = 12;

/**
 * A shopper browsing: every category and none, pages 1 to BROWSE_PAGES, no price ceiling or one of
 * BROWSE_PRICE_CEILINGS, at the storefront's page size; distinct URLs that an answer cache rarely meets twice.
 */
function browsePaths(categoryNames: string[]): string[] {
  const paths: string[] = [];
  for (const category of ['', ...categoryNames]) {
    for (let page = 1; page <= BROWSE_PAGES; page += 1) {
      for (const ceiling of [undefined, ...BROWSE_PRICE_CEILINGS]) {
        const query = new URLSearchParams({ limit: String(BROWSE_PAGE_SIZE), page: String(page) });
        if (category) query.set('category', category);
        if (ceiling !== undefined) query.set('priceMax', String(ceiling));
        paths.push(`/api/public/listings?${query}`);
      }
    }
  }
  return paths;
}

/** `count` of `paths`, spread evenly. */
function spread(paths: string[], count: number): string[] {
  return Array.from({ length: Math.min(count, paths.length) }, (_, index) => paths[Math.floor((index * paths.length) / Math.min(count, paths.length))]!);
}

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** A short unrecorded run first, so both servers are measured warm (JIT-compiled, statements prepared, pages cached). */
const WARM_UP_SECONDS = 2;

async function load(
  url: string,
  token?: string,
  duration = DURATION,
  pace: { connections: number; rate?: number } = { connections: CONNECTIONS },
  paths?: string[],
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: pace.connections,
    ...(pace.rate ? { overallRate: pace.rate } : {}),
    duration,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(paths
      ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: paths[Math.floor(Math.random() * paths.length)]! }) }] }
      : {}),
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.non2xx + result.errors };
}

function table(headers: string[], rows: Array<Array<string | number>>): void {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  for (const [index, row] of cells.entries()) {
    console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
}

async function dataOf(url: string, token?: string): Promise<unknown> {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: unknown }).data;
}

/** Minimum ratios to the floor: the storefront's reads at or ahead of it, the kept totals well ahead. */
const LOAD_TARGETS: Record<AnswerKind, { rps: number; p99: number }> = {
  list: { rps: 1.0, p99: 1.2 },
  detail: { rps: 1.0, p99: 1.2 },
  'filter-options': { rps: 5, p99: Infinity },
  'asset-stats': { rps: 5, p99: Infinity },
};

/** Browsing distinct URLs, which an answer cache rarely meets: the service well ahead of the floor's one statement. */
const BROWSE_TARGET = { rps: 1.5, p99: 1.2 };

type LoadRow = Array<string | number>;

/**
 * Each scenario on the service (started with `env`) and on the floor, side by side after a warm-up,
 * as a row of the load table: `judged` rows say whether they met their target, the others are for information.
 */
async function loadRows(scenarios: Scenario[], env: NodeJS.ProcessEnv, label: string, judged: boolean): Promise<LoadRow[]> {
  const service = await startService(env);
  const floor = await startFloor();
  try {
    const rows: LoadRow[] = [];
    for (const scenario of scenarios) {
      const serviceUrl = `${SERVICE_URL}${scenario.path}`;
      const floorUrl = `${FLOOR_URL}${scenario.path}`;
      let difference: string | undefined;
      for (const compared of scenario.paths ? spread(scenario.paths, BROWSE_COMPARED) : [scenario.path]) {
        const found = firstDifference(scenario.kind, await dataOf(`${SERVICE_URL}${compared}`, scenario.token), await dataOf(`${FLOOR_URL}${compared}`));
        difference ??= found === undefined ? undefined : `${compared}: ${found}`;
      }
      await load(serviceUrl, scenario.token, WARM_UP_SECONDS, undefined, scenario.paths);
      await load(floorUrl, undefined, WARM_UP_SECONDS, undefined, scenario.paths);
      const ours = await load(serviceUrl, scenario.token, DURATION, undefined, scenario.paths);
      const base = await load(floorUrl, undefined, DURATION, undefined, scenario.paths);
      const rpsRatio = ours.rps / base.rps;
      const p99Ratio = ours.p99 / Math.max(base.p99, 1);
      const target = scenario.paths ? BROWSE_TARGET : LOAD_TARGETS[scenario.kind];
      const met = rpsRatio >= target.rps && p99Ratio <= target.p99 && difference === undefined;
      rows.push([
        `${scenario.name}${label}`,
        difference === undefined ? 'same' : `DIFFERENT (${difference})`,
        Math.round(ours.rps),
        Math.round(base.rps),
        rpsRatio.toFixed(2),
        ours.p99,
        base.p99,
        p99Ratio.toFixed(2),
        ours.errors,
        judged ? (met ? 'met' : 'MISSED') : 'info',
      ]);
    }
    return rows;
  } finally {
    await service.stop();
    await stopChild(floor);
  }
}

async function benchLoad(scenarios: Scenario[]): Promise<void> {
  console.log(`\n## Load: ${CONNECTIONS} connections, ${DURATION} s each, service vs the straightforward floor (bench/floor.mjs)\n`);
  const rows = [
    ...(await loadRows(scenarios, {}, '', true)),
    // The lists again with the instance's answer cache off, for what a request costs when it reaches
    // the database (a CDN miss on a cold instance): for information.
    ...(await loadRows(
      scenarios.filter((scenario) => scenario.kind === 'list'),
      { ANSWER_CACHE_MS: '0' },
      ', instance cache off',
      false,
    )),
  ];
  table(['scenario', 'items', 'req/s', 'floor req/s', 'ratio', 'p99 ms', 'floor p99', 'p99 ratio', 'non-2xx', 'target'], rows);
  console.log('\ntargets: list, search and detail ratio >= 1.0 with p99 ratio <= 1.2; browse ratio >= 1.5 with p99 ratio <= 1.2; filter-options and asset-stats ratio >= 5');
}

async function benchColdStarts(): Promise<void> {
  console.log('\n## Cold start: import of each compiled function in a fresh Node process, then its first request\n');
  const rows = await measureColdStarts(path.resolve('dist'), benchEnv);
  table(
    ['route', 'method', 'access', 'import ms', 'first request ms', 'heavy packages'],
    rows.map((row) => [row.route, row.method, row.access, row.importMs.toFixed(0), row.firstRequestMs.toFixed(0), row.heavy.join(', ') || '-']),
  );
  const slowest = rows.reduce((max, row) => Math.max(max, row.importMs), 0);
  console.log(`\nslowest import ${slowest.toFixed(0)} ms (target <= 150 ms); GET routes importing a heavy package: ${
    rows.filter((row) => row.method === 'GET' && row.heavy.length > 0).map((row) => row.route).join(', ') || 'none'
  }`);
}

/** Functions held to a cold import of at most 1.5x a bare `import('pg')`. */
const LIGHT_FUNCTIONS = ['api/health/index', 'api/health/ready', 'api/public/listings/index', 'api/public/listings/[id]', 'api/public/filter-options', 'api/categories/index', 'api/categories/[id]', 'api/settings/index'];

async function benchDeployedFunctions(): Promise<void> {
  console.log("\n## Deployed functions: traced size and cold import of each .func in .vercel/output, against import('pg')\n");
  const outputDir = path.resolve('.vercel/output');
  if (!fs.existsSync(path.join(outputDir, 'config.json'))) {
    console.log('No build output: run npm run build:vercel first (README, Deploy).');
    return;
  }
  const rows = measureDeployedFunctions(outputDir, benchEnv);
  table(
    ['function', 'traced MB', 'import ms', 'x import(pg)'],
    rows.map((row) => [row.name, (row.tracedBytes / 1024 / 1024).toFixed(1), row.importMs.toFixed(0), row.ratioToPg.toFixed(2)]),
  );
  const light = rows.filter((row) => LIGHT_FUNCTIONS.includes(row.name));
  const worst = light.reduce((max, row) => Math.max(max, row.ratioToPg), 0);
  console.log(`\nhealth and public reads: worst ${worst.toFixed(2)}x import('pg') (target <= 1.5x)`);
}

/** Sign-ins at the production cost, one address sending 50 wrong ones at once. */
const FLOOD_LOGINS = 50;
/** The shop's ordinary traffic meanwhile: a steady rate well below what the service can take, so the figure is the flood's effect, not saturation. */
const ORDINARY_TRAFFIC = { connections: 4, rate: 200 };
/**
 * Idle and flooded windows, alternated: one pair's ratio moves with whatever else the machine runs
 * at that moment, the median of a few pairs much less.
 */
const FLOOD_ROUNDS = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((first, second) => first - second);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface FloodAnswers {
  statuses: Record<string, number>;
  seconds: number;
  /** How long a sign-in from another address took, sent just after the flood. */
  bystanderSeconds: number;
}

/**
 * Starts the flood's own process (bench/login-flood.mjs) and, once it is up, lets it fire:
 * `answered` is the sign-ins' statuses and the time to the last answer.
 */
async function startLoginFlood(emailPrefix: string): Promise<{ answered: Promise<FloodAnswers> }> {
  const child = spawn(process.execPath, ['bench/login-flood.mjs', `${SERVICE_URL}/api/auth/login`, String(FLOOD_LOGINS), emailPrefix], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  let ready: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.startsWith('ready\n')) ready();
  });
  const answered = new Promise<FloodAnswers>((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output.slice('ready\n'.length)) as FloodAnswers) : reject(new Error(`login flood exited with ${code}`)),
    );
  });
  // Node's start-up is paid before the flooded window opens, not inside it.
  await started;
  child.stdin!.end('go\n');
  return { answered };
}

async function benchLoginFlood(): Promise<void> {
  console.log(
    `\n## Sign-in flood: ${FLOOD_LOGINS} concurrent wrong logins from one address (bcrypt cost 12), against the latency of other requests at ${ORDINARY_TRAFFIC.rate} req/s, ${FLOOD_ROUNDS} rounds\n`,
  );
  // One trusted proxy hop, so the flood and a bystander can speak from different addresses.
  const service = await startService({ BCRYPT_ROUNDS: '12', TRUST_PROXY: '1' });
  const url = `${SERVICE_URL}/api/public/listings?limit=20`;
  try {
    await load(url, undefined, WARM_UP_SECONDS);
    // One sign-in first, so the flood is measured on a warm instance: the route's module loaded,
    // the hashing worker started and the dummy hash made (first-use costs, paid once per instance).
    await fetch(`${SERVICE_URL}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `warm-up-${Date.now()}@example.com`, password: 'not-the-password' }),
    });
    const rows: Array<Array<string | number>> = [];
    const ratios: number[] = [];
    for (let round = 1; round <= FLOOD_ROUNDS; round += 1) {
      // Counters left by an earlier run, round or the warm-up would refuse the flood before any password is checked.
      await query('delete from rate_limits');
      const idle = await load(url, undefined, DURATION, ORDINARY_TRAFFIC);
      const flood = await startLoginFlood(`flood-${Date.now()}-${round}`);
      const flooded = await load(url, undefined, DURATION, ORDINARY_TRAFFIC);
      // The next round's idle window starts once the last sign-in is answered.
      const { statuses, seconds, bystanderSeconds } = await flood.answered;
      const ratio = flooded.p99 / Math.max(idle.p99, 1);
      ratios.push(ratio);
      const answers = Object.entries(statuses).map(([status, count]) => `${count} x ${status}`).join(', ');
      rows.push([round, Math.round(idle.rps), idle.p50, idle.p99, Math.round(flooded.rps), flooded.p50, flooded.p99, ratio.toFixed(2), answers, seconds.toFixed(1), bystanderSeconds.toFixed(1)]);
    }
    table(['round', 'idle req/s', 'p50 ms', 'p99 ms', 'flooded req/s', 'p50 ms', 'p99 ms', 'p99 ratio', 'login answers', 'last answer s', 'other address s'], rows);
    console.log(
      `\np99 during the flood ${median(ratios).toFixed(2)}x idle, median of ${FLOOD_ROUNDS} rounds (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}; target <= 2x)`,
    );
  } finally {
    await service.stop();
  }
}

async function noiseJpeg(seed: number): Promise<Buffer> {
  // Gaussian noise barely compresses, so a photo-sized JPEG comes close to the 10 MB limit.
  const image = await sharp({ create: { width: 3400, height: 2650, channels: 3, background: { r: seed, g: 90, b: 160 }, noise: { type: 'gaussian', mean: 128, sigma: 70 } } })
    .jpeg({ quality: 97 })
    .toBuffer();
  if (image.length > 10 * 1024 * 1024) throw new Error(`generated image is over the 10 MB limit (${image.length} bytes)`);
  return image;
}

async function benchMemory(agentToken: string, categoryId: string): Promise<void> {
  console.log('\n## Memory: peak RSS of the service while one request uploads 10 images\n');
  const images = await Promise.all(Array.from({ length: 10 }, (_, index) => noiseJpeg(index * 20)));
  const service = await startService({});
  try {
    const status = () => fs.readFileSync(`/proc/${service.child.pid}/status`, 'utf8');
    const peak = () => Number(/VmHWM:\s+(\d+) kB/.exec(status())![1]) / 1024;
    await fetch(`${SERVICE_URL}/api/categories`);
    const before = peak();
    const form = new FormData();
    form.set('title', 'Benchmark upload');
    form.set('price', '100');
    form.set('categoryId', categoryId);
    form.set('attributes', JSON.stringify({ brand: 'Bench', model: 'Upload', storage: '128GB' }));
    for (const [index, image] of images.entries()) form.append('images', new Blob([image], { type: 'image/jpeg' }), `photo-${index}.jpg`);
    const started = performance.now();
    const response = await fetch(`${SERVICE_URL}/api/listings`, { method: 'POST', body: form, headers: { authorization: `Bearer ${agentToken}` } });
    const body = await response.text();
    const seconds = (performance.now() - started) / 1000;
    const totalMb = images.reduce((sum, image) => sum + image.length, 0) / 1024 / 1024;
    console.log(`upload of ${images.length} images, ${totalMb.toFixed(1)} MB in all: HTTP ${response.status} in ${seconds.toFixed(1)} s`);
    if (response.status !== 201) console.log(body.slice(0, 300));
    console.log(`peak RSS before ${before.toFixed(0)} MB, after ${peak().toFixed(0)} MB (target < 300 MB)`);
  } finally {
    await service.stop();
  }
  await benchAbusiveForms(agentToken);
}

const ABUSIVE_REQUESTS = 16;
const ABUSIVE_FIELDS = 100;
const MEGABYTE = 1024 * 1024;

/** A multipart body of `fields` text fields of 1 MB each, generated as it is sent (never held whole by the client). */
function abusiveForm(boundary: string, fields: number): ReadableStream<Uint8Array> {
  const value = Buffer.alloc(MEGABYTE, 'x');
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent === fields) {
        controller.enqueue(Buffer.from(`--${boundary}--\r\n`));
        controller.close();
        return;
      }
      controller.enqueue(Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\n`), value, Buffer.from('\r\n')]));
      sent += 1;
    },
  });
}

/** Peak RSS of the service while 16 requests at once each send 100 text fields of 1 MB. */
async function benchAbusiveForms(agentToken: string): Promise<void> {
  console.log(`\n## Memory: peak RSS while ${ABUSIVE_REQUESTS} requests at once each send ${ABUSIVE_FIELDS} text fields of 1 MB\n`);
  const service = await startService({});
  try {
    const status = () => fs.readFileSync(`/proc/${service.child.pid}/status`, 'utf8');
    const peak = () => Number(/VmHWM:\s+(\d+) kB/.exec(status())![1]) / 1024;
    await fetch(`${SERVICE_URL}/api/categories`);
    const idle = peak();
    const boundary = 'abusive-boundary';
    const answers = await Promise.all(
      Array.from({ length: ABUSIVE_REQUESTS }, () =>
        fetch(`${SERVICE_URL}/api/listings`, {
          method: 'POST',
          headers: { authorization: `Bearer ${agentToken}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
          body: abusiveForm(boundary, ABUSIVE_FIELDS),
          duplex: 'half',
        } as RequestInit).then(
          (response) => response.status,
          () => 'cut',
        ),
      ),
    );
    const counts = new Map<string, number>();
    for (const answer of answers) counts.set(String(answer), (counts.get(String(answer)) ?? 0) + 1);
    console.log(`answers: ${[...counts].map(([answer, count]) => `${count} x ${answer}`).join(', ')}`);
    console.log(`peak RSS idle ${idle.toFixed(0)} MB, after ${peak().toFixed(0)} MB: ${(peak() / idle).toFixed(2)}x (target <= 3x)`);
  } finally {
    await service.stop();
  }
}

async function main(): Promise<void> {
  compile();
  await ensureDatabase();
  const { runMigrations } = await import('../lib/db/migrate.js');
  await runMigrations();
  const [{ count } = { count: '0' }] = await query<{ count: string }>('select count(*) from listings');
  if (Number(count) < LISTINGS) runScript('scripts/seed.ts', ['--listings', String(LISTINGS - Number(count))]);

  const { getDb, closeDb } = await import('../lib/db/client.js');
  const { upsertAdmin } = await import('../lib/auth/bootstrap-admin.js');
  const { signToken } = await import('../lib/auth/tokens.js');
  const db = await getDb();
  const admin = await upsertAdmin(db, { email: 'bench-admin@example.com', password: 'bench-admin-password', name: 'Bench Admin', phone: '' });
  const adminToken = await signToken({ id: admin.id, email: 'bench-admin@example.com', role: 'SUPER_ADMIN' });
  const [agent] = await query<{ id: string; email: string }>(`select id, email from users where role = 'AGENT' order by email limit 1`);
  const agentToken = await signToken({ id: agent!.id, email: agent!.email, role: 'AGENT' });
  const [phones] = await query<{ id: string }>(`select id from categories where name = 'PHONES'`);
  const categoryNames = await query<{ displayName: string }>(`select "displayName" from categories order by name`);
  const browsed = browsePaths(categoryNames.map((category) => category.displayName));
  const [available] = await query<{ id: string }>(`select id from listings where status = 'AVAILABLE' order by "createdAt" desc offset 100 limit 1`);
  await closeDb();

  const scenarios: Scenario[] = [
    { name: 'public list', path: '/api/public/listings', kind: 'list' },
    { name: 'public search (q + brand + price)', path: '/api/public/listings?q=pro&brand=apple&priceMin=200&priceMax=1500', kind: 'list' },
    { name: `public browse (${browsed.length.toLocaleString('en-US')} URLs, page size ${BROWSE_PAGE_SIZE})`, path: browsed[0]!, paths: browsed, kind: 'list' },
    { name: 'public detail', path: `/api/public/listings/${available!.id}`, kind: 'detail' },
    { name: 'filter-options', path: '/api/public/filter-options?category=Phones', kind: 'filter-options' },
    { name: 'asset-stats', path: '/api/commissions/asset-stats', token: adminToken, kind: 'asset-stats' },
  ];
  console.log(`# Benchmarks on ${databaseUrl.replace(/\/\/[^@]*@/, '//')} (${Math.max(Number(count), LISTINGS).toLocaleString('en-US')} listings), ${os.cpus().length} cores`);
  if (SECTIONS.has('load')) await benchLoad(scenarios);
  if (SECTIONS.has('cold')) await benchColdStarts();
  if (SECTIONS.has('deployed')) await benchDeployedFunctions();
  if (SECTIONS.has('logins')) await benchLoginFlood();
  if (SECTIONS.has('memory')) await benchMemory(agentToken, phones!.id);
  if (SECTIONS.has('scale')) await benchScale({ env: benchEnv, databaseUrl: scaleDatabaseUrl });
  // On the demo store's photos, in an embedded database of its own.
  if (SECTIONS.has('photos')) runScript('bench/photo-bytes.ts', []);
  fs.rmSync(workDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
