import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm/sql/sql';
import { fileURLToPath } from 'node:url';
import { config, type Config } from '../config.js';
import { connect, type Database } from './client.js';

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
}

function migrationCount(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

/** The migrations the database has not recorded yet (all of them in a new database). */
async function pendingMigrations(db: Database): Promise<number> {
  const rowsOf = async <Row>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
  const [tracking] = await rowsOf<{ tracked: boolean }>(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as "tracked"`);
  if (!tracking?.tracked) return migrationCount();
  const [applied] = await rowsOf<{ count: number }>(sql`select count(*)::int as "count" from drizzle.__drizzle_migrations`);
  return Math.max(0, migrationCount() - (applied?.count ?? 0));
}

/** Applies every pending migration in `drizzle/`, on the direct (unpooled) URL when one is set. */
export async function runMigrations(cfg: Config = config(), options: MigrationOptions = {}): Promise<void> {
  const connection = await connect(cfg, cfg.databaseUrlUnpooled ?? cfg.databaseUrl, 'maintenance');
  try {
    if (options.onPending) {
      const pending = await pendingMigrations(connection.db);
      if (pending > 0) options.onPending(pending);
    }
    const migrate = await migratorFor(cfg);
    await migrate(connection.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await connection.close();
  }
}
