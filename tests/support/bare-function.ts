import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** One request to a function, as the platform hands it over: the path of its file, dynamic segments in the query. */
export interface BareRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A request with a JSON body, its type and length declared as an HTTP client declares them. */
export function jsonRequest(method: string, url: string, json: unknown, headers: Record<string, string> = {}): BareRequest {
  const body = JSON.stringify(json);
  return { method, url, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }, body };
}

export interface BareAnswer {
  status: number;
  body: string;
  /** What the process wrote to stderr (its logs, or why it could not load the function). */
  stderr: string;
}

/**
 * Runs in the bare process: loads the handler named by `.vc-config.json` as the platform's Node
 * launcher does (the default export unwrapped, the Web signature's `fetch` or method function),
 * calls it once and prints the answer.
 */
const LAUNCHER = `
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
const [funcDir, requestJson] = process.argv.slice(2);
const { handler: handlerFile } = JSON.parse(fs.readFileSync(path.join(funcDir, '.vc-config.json'), 'utf8'));
let handler = await import(pathToFileURL(path.join(funcDir, handlerFile)).href);
for (let depth = 0; depth < 5 && handler.default; depth += 1) handler = handler.default;
const request = JSON.parse(requestJson);
const call = typeof handler.fetch === 'function' ? handler.fetch : handler[request.method];
if (typeof call !== 'function') throw new Error(handlerFile + ' exports no handler for ' + request.method);
const response = await call(new Request(request.url, { method: request.method, headers: request.headers, body: request.body }));
// A pipe takes a large answer (the OpenAPI document) in several writes: exit once it has all of it.
process.stdout.write('\\n' + JSON.stringify({ status: response.status, body: await response.text() }) + '\\n', () => process.exit(0));
`;

/**
 * The launcher is a file of its own, outside the project: run with `-e` it would need
 * `--input-type=module`, which worker threads inherit (the password worker's code would then be
 * read as an ES module, as it never is on the platform).
 */
function launcherFile(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bare-launcher-')), 'launch.mjs');
  fs.writeFileSync(file, LAUNCHER);
  return file;
}

let launcher: string | undefined;

/**
 * Imports a function's handler in a `node` process of its own, started with no loader, no hook and
 * no TypeScript runtime, from inside its `.func` folder, and calls it once. The process ends after
 * the answer (database pools would keep it alive); an import-time or call-time error rejects with
 * what the process printed.
 */
export function callInBareProcess(funcDir: string, request: BareRequest, env: NodeJS.ProcessEnv): Promise<BareAnswer> {
  return new Promise((resolve, reject) => {
    // Options the test runner may pass on to its children (a loader among them) are not the platform's.
    const environment = { ...env };
    delete environment.NODE_OPTIONS;
    launcher ??= launcherFile();
    const child = spawn(process.execPath, [launcher, funcDir, JSON.stringify(request)], {
      cwd: funcDir,
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`exited with ${code}:\n${stderr}`));
      // The answer is the last line: a package may print before it.
      const answer = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { status: number; body: string };
      resolve({ ...answer, stderr });
    });
  });
}
