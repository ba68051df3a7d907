import { config } from '../lib/config.js';
import { runMigrations } from '../lib/db/migrate.js';
import { log } from '../lib/log.js';

const cfg = config();
runMigrations(cfg)
  .then(() => log.info('migrations applied', { driver: cfg.databaseDriver }))
  .catch((error: unknown) => {
    log.error('migration failed', { error });
    process.exit(1);
  });
