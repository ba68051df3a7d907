import type { Config } from '../config.js';
import { runMigrations } from '../db/migrate.js';
import { bulkLoadAccess, finishBulkLoads } from '../listings/derived-data.js';
import { progress } from './progress.js';

/** Where the data lives, for people: the embedded folder, or the server without its password. */
export function describeDatabase(cfg: Config): string {
  if (cfg.databaseDriver === 'pglite' || !cfg.databaseUrl) return `embedded PostgreSQL in ${cfg.dataDir}`;
  const url = new URL(cfg.databaseUrl);
  const driver = cfg.databaseDriver === 'neon' ? "Neon's serverless driver" : 'PostgreSQL';
  return `${driver} at ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}

/**
 * Migrates the configured database, saying so when that takes a while: a new embedded database is
 * created and migrated on first use (about 15 seconds on an idle machine, the time README gives),
 * pending migrations may rebuild indexes, and a bulk load stopped half way is finished.
 */
export async function prepareDatabase(cfg: Config): Promise<void> {
  const started = performance.now();
  let announced = false;
  if (cfg.databaseDriver === 'pglite' && !cfg.onVercel) {
    const { embeddedDatabaseExists, lockDataDir } = await import('../db/embedded.js');
    if (!embeddedDatabaseExists(cfg.dataDir)) {
      // A folder another process holds fails here, before announcing work that will not happen.
      lockDataDir(cfg.dataDir)();
      progress(`Creating and migrating the embedded database in ${cfg.dataDir} (first start, about 15 s)…`);
      announced = true;
    }
  }
  await runMigrations(cfg, {
    onPending: (count) => {
      if (announced) return;
      progress(`Applying ${count} new ${count === 1 ? 'migration' : 'migrations'} to the ${describeDatabase(cfg)}…`);
      announced = true;
    },
    // A bulk load stopped half way (a seed killed while it built its indexes) is finished first;
    // one another process is still running is left to it.
    thenOnConnection: (db) =>
      finishBulkLoads(db, bulkLoadAccess(cfg), (line) => {
        if (!announced) progress(`Finishing a bulk load of listings that stopped half way, in the ${describeDatabase(cfg)}…`);
        announced = true;
        progress(line);
      }),
  });
  if (announced) progress(`Database ready (${((performance.now() - started) / 1000).toFixed(1)} s).`);
}
