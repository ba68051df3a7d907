import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RouteHandler } from '../../lib/http/route.js';
import { discoverRoutes } from '../../lib/local-server/route-table.js';
import { median, table, type BenchContext } from '../harness.js';

/** Fresh processes timed per function, whose median is reported: one start on a busy machine is noise. */
const COLD_RUNS = 3;

interface ColdStartRow {
  route: string;
  method: string;
  access: string;
  importMs: number;
  firstRequestMs: number;
  status: number;
  heavy: string[];
}

const PARAM_VALUES: Record<string, string> = { messageId: '1', platform: 'MESSENGER' };
const ZERO_UUID = '00000000-0000-4000-8000-000000000000';

function probe(modulePath: string, requestPath: string, method: string, env: NodeJS.ProcessEnv, recordImports: boolean) {
  const args = [...(recordImports ? ['--import', './bench/import-recorder.mjs'] : []), 'bench/cold-start-probe.mjs', modulePath, requestPath, method];
  const output = execFileSync(process.execPath, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return JSON.parse(output.trim().split('\n').at(-1)!) as { importMs: number; firstRequestMs: number; status: number; heavy: string[] };
}

/**
 * For each compiled function: the time to import it in a fresh Node process and to serve a first
 * request (its cold start, the median of COLD_RUNS), and which heavy packages its import graph pulls in.
 */
async function measureColdStarts(distDir: string, env: NodeJS.ProcessEnv): Promise<ColdStartRow[]> {
  const rows: ColdStartRow[] = [];
  for (const route of discoverRoutes(path.join(distDir, 'api'))) {
    const handler = ((await import(pathToFileURL(route.modulePath).href)) as { default: RouteHandler }).default;
    const methods = Object.entries(handler.endpoints);
    const [method, endpoint] = methods.find(([name]) => name === 'GET') ?? methods[0]!;
    const requestPath = route.pattern.replace(/:(\w+)/g, (_, name: string) => PARAM_VALUES[name] ?? ZERO_UUID);
    const timings = Array.from({ length: COLD_RUNS }, () => probe(route.modulePath, requestPath, method, env, false));
    const imports = probe(route.modulePath, requestPath, method, env, true);
    rows.push({
      route: route.pattern,
      method,
      access: endpoint!.access,
      importMs: median(timings.map((timing) => timing.importMs)),
      firstRequestMs: median(timings.map((timing) => timing.firstRequestMs)),
      status: timings[0]!.status,
      heavy: imports.heavy,
    });
  }
  return rows;
}

/**
 * Each compiled function's cold import and first request, module by module as `tsc` compiles
 * them; met when no GET route pulls a heavy package into its import graph. The import that the
 * platform's users meet is the bundled function's, which the deployed section holds to its target.
 */
export async function benchColdStarts(context: BenchContext): Promise<boolean> {
  // The first requests read the benchmark database, as a deployed function's would.
  await context.store();
  console.log(`\n## Cold start: import of each compiled function in a fresh Node process, then its first request (median of ${COLD_RUNS})\n`);
  const rows = await measureColdStarts(path.resolve('dist'), context.env);
  table(
    ['route', 'method', 'access', 'import ms', 'first request ms', 'heavy packages'],
    rows.map((row) => [row.route, row.method, row.access, row.importMs.toFixed(0), row.firstRequestMs.toFixed(0), row.heavy.join(', ') || '-']),
  );
  const slowest = rows.reduce((max, row) => Math.max(max, row.importMs), 0);
  const heavyReads = rows.filter((row) => row.method === 'GET' && row.heavy.length > 0).map((row) => row.route);
  console.log(`\nslowest import ${slowest.toFixed(0)} ms (module by module; the deployed section times the bundles); GET routes importing a heavy package: ${heavyReads.join(', ') || 'none'} (target none)`);
  return heavyReads.length === 0;
}
