import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

/** The port the service under measurement listens on (BENCH_PORT; the floor takes the next one). */
export const SERVICE_PORT = Number(process.env.BENCH_PORT ?? 5310);
export const SERVICE_URL = `http://127.0.0.1:${SERVICE_PORT}`;

export interface Service {
  child: ChildProcess;
  /** The service's JSON log lines, as they arrive. */
  lines: Array<Record<string, unknown>>;
  stop: () => Promise<void>;
}

/** A statement the service ran, as its debug log names it. */
export interface CapturedStatement {
  sql: string;
  params: unknown[];
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
    .map((line) => ({ sql: String(line.sql), params: line.params as unknown[] }));
}
