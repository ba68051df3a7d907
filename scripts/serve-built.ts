import '../lib/cli/project-env.js';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * `npm run start:built [-- DIR]`: serves `.vercel/output` (or DIR) as the platform does. The server
 * is compiled into one plain JavaScript file outside the project and run by `node` alone: the
 * platform's launcher imports each function with no TypeScript loader and no project
 * `node_modules` in reach, and a loader here would supply what a bundle lacks and hide the fault.
 */
const PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outputDir = path.resolve(process.argv[2] ?? path.join(PROJECT_DIR, '.vercel', 'output'));
if (!fs.existsSync(path.join(outputDir, 'config.json'))) {
  process.stderr.write(`No build output in ${outputDir}: run npm run build:vercel first.\n`);
  process.exit(1);
}

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-output-server-'));
const serverFile = path.join(workDir, 'server.mjs');
await build({
  entryPoints: [path.join(PROJECT_DIR, 'scripts', 'serve-built-process.ts')],
  outfile: serverFile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'error',
});

// A child's arguments are its own: the loader this script runs under is not passed on.
const server = spawn(process.execPath, [serverFile, outputDir], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.once('exit', (code, signal) => {
  fs.rmSync(workDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
