import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { config, type Config } from '../config.js';
import { connect } from './client.js';

export const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

type Migrator = (db: never, options: { migrationsFolder: string }) => Promise<void>;

async function migratorFor(cfg: Config): Promise<Migrator> {
  if (cfg.databaseDriver === 'pglite' || !cfg.databaseUrl) return (await import('drizzle-orm/pglite/migrator')).migrate as Migrator;
  if (cfg.databaseDriver === 'neon') return (await import('drizzle-orm/neon-serverless/migrator')).migrate as Migrator;
  return (await import('drizzle-orm/node-postgres/migrator')).migrate as Migrator;
}

/** Applies every pending migration in `drizzle/`, on the direct (unpooled) URL when one is set. */
export async function runMigrations(cfg: Config = config()): Promise<void> {
  const connection = await connect(cfg, cfg.databaseUrlUnpooled ?? cfg.databaseUrl, 'maintenance');
  try {
    const migrate = await migratorFor(cfg);
    await migrate(connection.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await connection.close();
  }
}
