import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { config, type Config } from '../config.js';
import { connect, type Database } from './client.js';
import { pendingMigrationCount } from './pending-migrations.js';

export const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

type Migrator = (db: never, options: { migrationsFolder: string }) => Promise<void>;

async function migratorFor(cfg: Config): Promise<Migrator> {
  if (cfg.databaseDriver === 'pglite' || !cfg.databaseUrl) return (await import('drizzle-orm/pglite/migrator')).migrate as Migrator;
  if (cfg.databaseDriver === 'neon') return (await import('drizzle-orm/neon-serverless/migrator')).migrate as Migrator;
  return (await import('drizzle-orm/node-postgres/migrator')).migrate as Migrator;
}

export interface MigrationOptions {
  /** Told how many migrations are about to be applied, when there are any. */
  onPending?: (count: number) => void;
  /** Run on the same connection once the database is migrated. */
  thenOnConnection?: (db: Database) => Promise<void>;
}

/** Applies every pending migration in `drizzle/`, on the direct (unpooled) URL when one is set. */
export async function runMigrations(cfg: Config = config(), options: MigrationOptions = {}): Promise<void> {
  const connection = await connect(cfg, cfg.databaseUrlUnpooled ?? cfg.databaseUrl, 'maintenance');
  try {
    if (options.onPending) {
      const pending = await pendingMigrationCount(connection.db);
      if (pending > 0) options.onPending(pending);
    }
    const migrate = await migratorFor(cfg);
    await migrate(connection.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    await options.thenOnConnection?.(connection.db);
  } finally {
    await connection.close();
  }
}
