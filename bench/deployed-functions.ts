import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readBuildOutput } from '../lib/platform/build-output-server.js';
import type { FunctionConfig } from '../lib/platform/function-launcher.js';

export interface DeployedFunctionRow {
  name: string;
  tracedBytes: number;
  importMs: number;
  /** The function's import against a bare `import('pg')` from the same folder. */
  ratioToPg: number;
}

function folderBytes(dir: string): number {
  return fs.readdirSync(dir, { withFileTypes: true }).reduce((total, entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return total + folderBytes(full);
    return entry.isFile() ? total + fs.statSync(full).size : total;
  }, 0);
}

/** The median of `runs` imports of `url`, each in a fresh Node process. */
function coldImportMs(url: string, runs: number, env: NodeJS.ProcessEnv): number {
  const times = Array.from({ length: runs }, () =>
    Number(execFileSync(process.execPath, ['bench/import-probe.mjs', url], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
  ).sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * Every function of a `vercel build` output: what it carries (its traced files) and how long its
 * handler takes to import in a fresh process, next to `import('pg')` resolved from its own folder.
 */
export function measureDeployedFunctions(outputDir: string, env: NodeJS.ProcessEnv, runs = 3): DeployedFunctionRow[] {
  return readBuildOutput(outputDir).functions.sort().map((name) => {
    const funcDir = path.join(outputDir, 'functions', `${name}.func`);
    const config = JSON.parse(fs.readFileSync(path.join(funcDir, '.vc-config.json'), 'utf8')) as FunctionConfig;
    const handler = path.join(funcDir, config.handler);
    const pgEntry = createRequire(handler).resolve('pg');
    const importMs = coldImportMs(pathToFileURL(handler).href, runs, env);
    const pgMs = coldImportMs(pathToFileURL(pgEntry).href, runs, env);
    return { name, tracedBytes: folderBytes(funcDir), importMs, ratioToPg: importMs / pgMs };
  });
}
