import '../lib/cli/project-env.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { explainFailure } from '../lib/cli/failure.js';
import { config, describeMissing, missingSettings } from '../lib/config.js';
import { runMigrations } from '../lib/db/migrate.js';
import { log } from '../lib/log.js';
import { discoverRoutes } from '../lib/local-server/route-table.js';
import { writeBuildOutput } from '../lib/platform/build-output-writer.js';

/**
 * The deployment's build (`npm run vercel-build`, which vercel.json's only build,
 * @vercel/static-build, runs). On the platform it refuses to build a deployment that lacks a
 * required setting, and migrates the database of production deployments only (previews too with
 * `MIGRATE_PREVIEWS=1`, for previews that have a database of their own). Then it writes the whole
 * deployment as Build Output API v3 into `.vercel/output` (or the folder given), one bundled
 * function per `api/` file, which `vercel build` keeps as it is (lib/platform/build-output-writer.ts).
 */
const PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT_DIR = path.resolve(process.argv[2] ?? path.join(PROJECT_DIR, '.vercel', 'output'));

async function main(): Promise<void> {
  const cfg = config();
  if (cfg.onVercel) {
    const missing = missingSettings(cfg);
    if (missing.length > 0) throw new Error(`This deployment lacks required settings: ${describeMissing(missing)}`);
    const environment = process.env.VERCEL_ENV ?? 'preview';
    if (environment === 'production' || process.env.MIGRATE_PREVIEWS === '1') {
      await runMigrations(cfg);
      log.info('migrations applied', { environment, driver: cfg.databaseDriver });
    } else {
      log.info('migrations skipped: only production deployments migrate (MIGRATE_PREVIEWS=1 for previews with their own database)', { environment });
    }
  }
  const started = performance.now();
  const functions = discoverRoutes(path.join(PROJECT_DIR, 'api'));
  // Progress by count, not an estimate: a build's length depends on the machine and what else it runs.
  log.info(`bundling ${functions.length} functions into ${OUTPUT_DIR}…`);
  await writeBuildOutput(PROJECT_DIR, OUTPUT_DIR, functions, (route, written) => {
    log.info(`bundled ${written} of ${functions.length}: api/${route.file}.ts (${Math.round((performance.now() - started) / 1000)} s)`);
  });
  log.info('build output written', { outputDir: OUTPUT_DIR, functions: functions.length, ms: Math.round(performance.now() - started) });
}

main().catch((error: unknown) => {
  // The one line a command would print (a database the server lacks names its setting and the createdb line).
  log.error('build failed', { error: explainFailure(error) });
  process.exit(1);
});
