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
import type { CapturedStatement } from './floor-server.js';

const USAGE = `Usage: npm run bench -- [--listings N] [--duration S] [--connections C] [--sections load,cold,deployed,logins,memory,search]
Runs against BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/mkt_bench), seeding it up to N listings.`;

const { values: options } = parseArgs({
  options: {
    listings: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    sections: { type: 'string', default: 'load,cold,deployed,logins,memory,search' },
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
const SERVICE_PORT = 5310;
const FLOOR_PORT = 5311;
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/mkt_bench';
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

interface Service {
  child: ChildProcess;
  lines: Array<Record<string, unknown>>;
  stop: () => Promise<void>;
}

/**
 * Compiles the functions, the local server and the floor into `dist/` (inside the project, so they
 * resolve their packages from node_modules), as deployed code runs: plain JavaScript, no loader.
 */
function compile(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  // The compiled server finds the migrations and rewrites next to itself, as in the project.
  fs.cpSync('drizzle', 'dist/drizzle', { recursive: true });
  fs.copyFileSync('vercel.json', 'dist/vercel.json');
}

/** Starts the compiled local server as its own process. */
async function startService(env: NodeJS.ProcessEnv): Promise<Service> {
  const child = spawn(process.execPath, ['dist/scripts/serve.js'], {
    env: { ...benchEnv, PORT: String(SERVICE_PORT), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Array<Record<string, unknown>> = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
  });
  await waitForHttp(`http://127.0.0.1:${SERVICE_PORT}/health`);
  return { child, lines, stop: () => stopChild(child) };
}

async function startFloor(scenarioFile: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist/bench/floor-server.js', scenarioFile], {
    env: { ...benchEnv, PORT: String(FLOOR_PORT) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return child;
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function waitForHttp(url: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

interface Scenario {
  name: string;
  path: string;
  token?: string;
  statements?: CapturedStatement[];
}

/** Runs each scenario once on a debug-logging service and keeps the statements it executed. */
async function captureStatements(scenarios: Scenario[]): Promise<void> {
  const service = await startService({ LOG_LEVEL: 'debug' });
  try {
    for (const scenario of scenarios) {
      const from = service.lines.length;
      const response = await fetch(`http://127.0.0.1:${SERVICE_PORT}${scenario.path}`, {
        headers: scenario.token ? { authorization: `Bearer ${scenario.token}` } : {},
      });
      if (!response.ok) throw new Error(`${scenario.name}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      for (let wait = 0; wait < 100 && !service.lines.slice(from).some((line) => line.msg === 'request'); wait += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      scenario.statements = service.lines
        .slice(from)
        .filter((line) => line.msg === 'query')
        .map((line) => ({ sql: String(line.sql), params: line.params as unknown[] }));
    }
  } finally {
    await service.stop();
  }
}

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** A short unrecorded run first, so both servers are measured warm (JIT-compiled, statements prepared, pages cached). */
const WARM_UP_SECONDS = 2;

async function load(url: string, token?: string, duration = DURATION, pace: { connections: number; rate?: number } = { connections: CONNECTIONS }): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: pace.connections,
    ...(pace.rate ? { overallRate: pace.rate } : {}),
    duration,
    headers: token ? { authorization: `Bearer ${token}` } : {},
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

async function benchLoad(scenarios: Scenario[]): Promise<void> {
  console.log(`\n## Load: ${CONNECTIONS} connections, ${DURATION} s each, service vs node:http + pg floor running the same SQL\n`);
  await captureStatements(scenarios);
  const scenarioFile = path.join(workDir, 'scenarios.json');
  fs.writeFileSync(scenarioFile, JSON.stringify(Object.fromEntries(scenarios.map((s) => [s.path, s.statements]))));
  const service = await startService({});
  const floor = await startFloor(scenarioFile);
  const rows: Array<Array<string | number>> = [];
  try {
    for (const scenario of scenarios) {
      const serviceUrl = `http://127.0.0.1:${SERVICE_PORT}${scenario.path}`;
      const floorUrl = `http://127.0.0.1:${FLOOR_PORT}${scenario.path}`;
      await load(serviceUrl, scenario.token, WARM_UP_SECONDS);
      await load(floorUrl, undefined, WARM_UP_SECONDS);
      const ours = await load(serviceUrl, scenario.token);
      const base = await load(floorUrl);
      rows.push([
        scenario.name,
        scenario.statements!.length,
        Math.round(ours.rps),
        Math.round(base.rps),
        (ours.rps / base.rps).toFixed(2),
        ours.p50,
        base.p50,
        ours.p99,
        base.p99,
        (ours.p99 / Math.max(base.p99, 1)).toFixed(2),
        ours.errors,
      ]);
    }
  } finally {
    await service.stop();
    await stopChild(floor);
  }
  table(['scenario', 'stmts', 'req/s', 'floor req/s', 'ratio', 'p50 ms', 'floor p50', 'p99 ms', 'floor p99', 'p99 ratio', 'non-2xx'], rows);
  console.log('\ntargets: public list and detail ratio >= 0.90, p99 ratio <= 1.20');
}

async function benchSearch(scenario: Scenario): Promise<void> {
  const [count] = await query<{ count: string }>('select count(*) from listings');
  console.log(`\n## Storefront search at ${Number(count!.count).toLocaleString('en-US')} listings: ${scenario.path}\n`);
  const statement = scenario.statements!.at(-1)!;
  const timings: number[] = [];
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  for (let run = 0; run < 30; run += 1) {
    const started = performance.now();
    await client.query(statement.sql, statement.params);
    timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  console.log(`p50 ${timings[15]!.toFixed(1)} ms, p90 ${timings[27]!.toFixed(1)} ms over 30 runs (target p50 < 20 ms at 1,000,000)`);
  const plan = await client.query(`explain (analyze, buffers off, costs off) ${statement.sql}`, statement.params);
  console.log(plan.rows.map((row: Record<string, string>) => `  ${row['QUERY PLAN']}`).join('\n'));
  await client.end();
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

async function benchLoginFlood(): Promise<void> {
  console.log(
    `\n## Sign-in flood: ${FLOOD_LOGINS} concurrent wrong logins from one address (bcrypt cost 12), against the latency of other requests at ${ORDINARY_TRAFFIC.rate} req/s\n`,
  );
  // Counters left by an earlier run would refuse the flood before any password is checked.
  await query('delete from rate_limits');
  const service = await startService({ BCRYPT_ROUNDS: '12' });
  const url = `http://127.0.0.1:${SERVICE_PORT}/api/public/listings?limit=20`;
  try {
    await load(url, undefined, WARM_UP_SECONDS);
    const idle = await load(url, undefined, DURATION, ORDINARY_TRAFFIC);
    const statuses = new Map<number, number>();
    const flood = Promise.all(
      Array.from({ length: FLOOD_LOGINS }, (_, index) =>
        fetch(`http://127.0.0.1:${SERVICE_PORT}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: `flood-${Date.now()}-${index}@example.com`, password: 'not-the-password' }),
        }).then((response) => statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)),
      ),
    );
    const flooded = await load(url, undefined, DURATION, ORDINARY_TRAFFIC);
    await flood;
    table(
      ['public list', 'req/s', 'p50 ms', 'p99 ms'],
      [
        ['idle', Math.round(idle.rps), idle.p50, idle.p99],
        ['during the flood', Math.round(flooded.rps), flooded.p50, flooded.p99],
      ],
    );
    console.log(`\nlogin answers: ${[...statuses].map(([status, count]) => `${count} x ${status}`).join(', ')}`);
    console.log(`p99 during the flood ${(flooded.p99 / Math.max(idle.p99, 1)).toFixed(2)}x idle (target <= 2x)`);
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
    await fetch(`http://127.0.0.1:${SERVICE_PORT}/api/categories`);
    const before = peak();
    const form = new FormData();
    form.set('title', 'Benchmark upload');
    form.set('price', '100');
    form.set('categoryId', categoryId);
    form.set('attributes', JSON.stringify({ brand: 'Bench', model: 'Upload', storage: '128GB' }));
    for (const [index, image] of images.entries()) form.append('images', new Blob([image], { type: 'image/jpeg' }), `photo-${index}.jpg`);
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${SERVICE_PORT}/api/listings`, { method: 'POST', body: form, headers: { authorization: `Bearer ${agentToken}` } });
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
    await fetch(`http://127.0.0.1:${SERVICE_PORT}/api/categories`);
    const idle = peak();
    const boundary = 'abusive-boundary';
    const answers = await Promise.all(
      Array.from({ length: ABUSIVE_REQUESTS }, () =>
        fetch(`http://127.0.0.1:${SERVICE_PORT}/api/listings`, {
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
  const [available] = await query<{ id: string }>(`select id from listings where status = 'AVAILABLE' order by "createdAt" desc offset 100 limit 1`);
  await closeDb();

  const scenarios: Scenario[] = [
    { name: 'public list', path: '/api/public/listings' },
    { name: 'public search (q + brand + price)', path: '/api/public/listings?q=pro&brand=apple&priceMin=200&priceMax=1500' },
    { name: 'public detail', path: `/api/public/listings/${available!.id}` },
    { name: 'filter-options', path: '/api/public/filter-options?category=Phones' },
    { name: 'admin list (filters)', path: `/api/listings?status=AVAILABLE&categoryId=${phones!.id}&minPrice=100&maxPrice=2000&search=pro`, token: adminToken },
    { name: 'asset-stats', path: '/api/commissions/asset-stats', token: adminToken },
  ];
  console.log(`# Benchmarks on ${databaseUrl.replace(/\/\/[^@]*@/, '//')} (${Math.max(Number(count), LISTINGS).toLocaleString('en-US')} listings), ${os.cpus().length} cores`);
  if (SECTIONS.has('load')) await benchLoad(scenarios);
  if (SECTIONS.has('search')) {
    if (!scenarios[1]!.statements) await captureStatements([scenarios[1]!]);
    await benchSearch(scenarios[1]!);
  }
  if (SECTIONS.has('cold')) await benchColdStarts();
  if (SECTIONS.has('deployed')) await benchDeployedFunctions();
  if (SECTIONS.has('logins')) await benchLoginFlood();
  if (SECTIONS.has('memory')) await benchMemory(agentToken, phones!.id);
  fs.rmSync(workDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
