import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readBuildOutput } from '../../lib/platform/build-output-server.js';
import type { FunctionConfig } from '../../lib/platform/function-launcher.js';
import { median, table, type BenchContext } from '../harness.js';

/** Functions held to a cold import of at most IMPORT_TARGET_RATIO times a bare `import('pg')`. */
const LIGHT_FUNCTIONS = ['api/health/index', 'api/health/ready', 'api/public/listings/index', 'api/public/listings/[id]', 'api/public/filter-options', 'api/categories/index', 'api/categories/[id]', 'api/settings/index'];
const IMPORT_TARGET_RATIO = 1.5;

interface DeployedFunctionRow {
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
  return median(
    Array.from({ length: runs }, () =>
      Number(execFileSync(process.execPath, ['bench/import-probe.mjs', url], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
    ),
  );
}

/**
 * Every function of a `vercel build` output: what it carries (its traced files) and how long its
 * handler takes to import in a fresh process, next to `import('pg')` resolved from its own folder.
 */
function measureDeployedFunctions(outputDir: string, env: NodeJS.ProcessEnv, runs = 3): DeployedFunctionRow[] {
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

/** Each function of the build output: its traced size and cold import, the light ones against `import('pg')`. */
export async function benchDeployedFunctions(context: BenchContext): Promise<boolean> {
  console.log("\n## Deployed functions: traced size and cold import of each .func in .vercel/output, against import('pg')\n");
  const outputDir = path.resolve('.vercel/output');
  if (!fs.existsSync(path.join(outputDir, 'config.json'))) {
    console.log('No build output: run npm run build:vercel first (README, Deploy).');
    return false;
  }
  const rows = measureDeployedFunctions(outputDir, context.env);
  table(
    ['function', 'traced MB', 'import ms', 'x import(pg)'],
    rows.map((row) => [row.name, (row.tracedBytes / 1024 / 1024).toFixed(1), row.importMs.toFixed(0), row.ratioToPg.toFixed(2)]),
  );
  const light = rows.filter((row) => LIGHT_FUNCTIONS.includes(row.name));
  const worst = light.reduce((max, row) => Math.max(max, row.ratioToPg), 0);
  console.log(`\nhealth and public reads: worst ${worst.toFixed(2)}x import('pg') (target <= ${IMPORT_TARGET_RATIO}x)`);
  return worst <= IMPORT_TARGET_RATIO;
}
