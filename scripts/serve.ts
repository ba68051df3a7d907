import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { config, describeMissing, missingSettings } from '../lib/config.js';
import { closeDb } from '../lib/db/client.js';
import { runMigrations } from '../lib/db/migrate.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { createLocalServer } from '../lib/local-server/server.js';
import { log } from '../lib/log.js';
import { ensureConfiguredAdmin } from '../lib/auth/bootstrap-admin.js';
import { sweep } from '../lib/cron/sweep.js';

const SWEEP_INTERVAL_MS = 60_000;

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<void> {
  const cfg = config();
  const missing = missingSettings(cfg);
  if (missing.length > 0) throw new Error(`Refusing to start: ${describeMissing(missing)}`);
  await runMigrations(cfg);
  await ensureConfiguredAdmin();
  const server = createLocalServer({ projectRoot });
  server.listen(cfg.port, () => {
    log.info('listening', {
      url: `http://localhost:${cfg.port}`,
      database: cfg.databaseDriver === 'pglite' ? `embedded (${cfg.dataDir})` : cfg.databaseDriver,
      storage: cfg.storageProvider,
    });
  });
  // The scheduled sweeper of a deployment (D33), run here every minute.
  const sweeping = setInterval(() => {
    void sweep().catch((error: unknown) => log.error('sweep failed', { error }));
  }, SWEEP_INTERVAL_MS);
  const shutdown = (signal: string) => {
    log.info('shutting down', { signal });
    clearInterval(sweeping);
    server.close();
    void settleDeferredWork()
      .then(() => closeDb())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  log.error('could not start', { error });
  process.exit(1);
});
