import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { config, describeMissing, missingSettings } from '../lib/config.js';
import { runMigrations } from '../lib/db/migrate.js';
import { log } from '../lib/log.js';
import { STATIC_FILES } from '../lib/platform/static-files.js';

/**
 * The platform's build command (vercel.json `buildCommand`). On the platform it refuses to build
 * a deployment that lacks a required setting, and migrates the database of production deployments
 * only (previews too with `MIGRATE_PREVIEWS=1`, for previews that have a database of their own).
 * It writes the static output folder the platform expects (lib/platform/static-files.ts).
 */
const OUTPUT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'public');

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
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  for (const [name, text] of Object.entries(STATIC_FILES)) fs.writeFileSync(path.join(OUTPUT_DIR, name), text);
}

main().catch((error: unknown) => {
  log.error('build failed', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
