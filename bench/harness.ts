import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import type { BrowseCeilings } from '../lib/seeding/catalogue-prices.js';

/**
 * What every benchmark section shares: the service under measurement, a load run, the database
 * helpers, and how figures are printed.
 */

/** What a section is given: the benchmark's environment and the run's options. */
export interface BenchContext {
  /** The environment of the service and of every process a section starts. */
  env: NodeJS.ProcessEnv;
  /** Seconds of each load run (`--duration`). */
  duration: number;
  /** Connections of each load run (`--connections`). */
  connections: number;
  /** The benchmark database, migrated and seeded on first use (bench/store.ts). */
  store: () => Promise<BenchStore>;
}

/** The benchmark database once prepared: who signs in and what the sections read. */
export interface BenchStore {
  databaseUrl: string;
  listings: number;
  adminToken: string;
  agentToken: string;
  phonesCategoryId: string;
  categoryNames: string[];
  /** An AVAILABLE listing a hundred from the newest. */
  availableListingId: string;
  /** The price ceilings a browsing shopper sets: the catalogue's own price percentiles, overall and per category. */
  browseCeilings: BrowseCeilings;
}

/** One section of the benchmarks: prints its figures and answers whether it met its target. */
export type BenchSection = (context: BenchContext) => Promise<boolean>;

/** The port the service under measurement listens on (BENCH_PORT; the floor takes the next one). */
export const SERVICE_PORT = Number(process.env.BENCH_PORT ?? 5310);
export const SERVICE_URL = `http://127.0.0.1:${SERVICE_PORT}`;

export interface Service {
  child: ChildProcess;
  /** The service's JSON log lines, as they arrive. */
  lines: Array<Record<string, unknown>>;
  stop: () => Promise<void>;
}

/** A statement the service ran, as its debug log gives it: the text, and how many parameters it took (their values are never logged). */
export interface CapturedStatement {
  sql: string;
  parameters: number;
}

/**
 * Compiles the functions and the local server into `dist/` (inside the project, so they resolve
 * their packages from node_modules), as deployed code runs: plain JavaScript, no loader.
 */
export function compile(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  // The compiled server finds the migrations and rewrites next to itself, as in the project.
  fs.cpSync('drizzle', 'dist/drizzle', { recursive: true });
  fs.copyFileSync('vercel.json', 'dist/vercel.json');
}

export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function waitForHttp(url: string): Promise<void> {
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

/** Starts the compiled local server as its own process, with `env`. */
export async function startService(env: NodeJS.ProcessEnv): Promise<Service> {
  const child = spawn(process.execPath, ['dist/scripts/serve.js'], {
    env: { ...env, PORT: String(SERVICE_PORT) },
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
  await waitForHttp(`${SERVICE_URL}/health`);
  return { child, lines, stop: () => stopChild(child) };
}

/** A request as the benchmarks send it. */
export interface BenchRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  token?: string;
  json?: unknown;
}

export function send(request: BenchRequest): Promise<Response> {
  const headers: Record<string, string> = {};
  if (request.token) headers.authorization = `Bearer ${request.token}`;
  if (request.json !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${SERVICE_URL}${request.path}`, {
    method: request.method ?? 'GET',
    headers,
    body: request.json === undefined ? undefined : JSON.stringify(request.json),
  });
}

/** Sends the request to a service started with LOG_LEVEL=debug and answers the statements it ran for it. */
export async function statementsOf(service: Service, request: BenchRequest): Promise<CapturedStatement[]> {
  const from = service.lines.length;
  const response = await send(request);
  await response.arrayBuffer();
  for (let wait = 0; wait < 100 && !service.lines.slice(from).some((line) => line.msg === 'request'); wait += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return service.lines
    .slice(from)
    .filter((line) => line.msg === 'query')
    .map((line) => ({ sql: String(line.sql), parameters: Number(line.parameters ?? 0) }));
}

export async function withClient<T>(databaseUrl: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

export async function query<T extends pg.QueryResultRow>(databaseUrl: string, sql: string, params: unknown[] = []): Promise<T[]> {
  return withClient(databaseUrl, async (client) => (await client.query<T>(sql, params)).rows);
}

/** Creates the database `databaseUrl` names when it does not exist yet. */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const name = new URL(databaseUrl).pathname.slice(1);
  await withClient(maintenance.toString(), async (client) => {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name.replace(/"/g, '')}"`);
  });
}

/** Runs a TypeScript script of the project in its own Node process, with `env`. */
export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): void {
  execFileSync(process.execPath, ['--import', 'tsx', script, ...args], { env, stdio: 'inherit' });
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** A short unrecorded run first, so servers are measured warm (JIT-compiled, statements prepared, pages cached). */
export const WARM_UP_SECONDS = 2;

export interface LoadRun {
  url: string;
  token?: string;
  seconds: number;
  connections: number;
  /** Requests per second across all connections; unset: as fast as the server answers. */
  rate?: number;
  /** When given, each request takes one of these paths at random instead of the URL's. */
  paths?: string[];
}

export async function measureLoad(run: LoadRun): Promise<LoadResult> {
  const { paths } = run;
  const result = await autocannon({
    url: run.url,
    connections: run.connections,
    ...(run.rate ? { overallRate: run.rate } : {}),
    duration: run.seconds,
    headers: run.token ? { authorization: `Bearer ${run.token}` } : {},
    ...(paths
      ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: paths[Math.floor(Math.random() * paths.length)]! }) }] }
      : {}),
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.non2xx + result.errors };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((first, second) => first - second);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function table(headers: string[], rows: Array<Array<string | number>>): void {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  for (const [index, row] of cells.entries()) {
    console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
}

/** Peak resident memory of a running process, in MB. */
export function peakRssMb(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}
