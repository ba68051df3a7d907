import { sql } from 'drizzle-orm/sql/sql';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import type { Executor } from '../db/client.js';
import { MIGRATIONS_FOLDER } from '../db/migrate.js';
import { DRIZZLE_JOURNAL, DRIZZLE_SCHEMA } from './inspect.js';

/** This service's migrations (`drizzle/`), read as drizzle's migrator reads them: statements, hash and time. */
export function serviceMigrations(): MigrationMeta[] {
  return readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
}

/** Runs every statement of every migration, in order, on the open transaction. */
export async function applyMigrations(executor: Executor, migrations: readonly MigrationMeta[]): Promise<void> {
  for (const migration of migrations) {
    for (const statement of migration.sql) await executor.execute(sql.raw(statement));
  }
}

/**
 * Records the migrations as applied, in the journal table drizzle's migrator keeps (the same
 * definition and rows), so `db:migrate` finds nothing left to do.
 */
export async function recordMigrations(executor: Executor, migrations: readonly MigrationMeta[]): Promise<void> {
  const journal = sql.raw(`"${DRIZZLE_SCHEMA}"."${DRIZZLE_JOURNAL}"`);
  await executor.execute(sql.raw(`CREATE SCHEMA IF NOT EXISTS "${DRIZZLE_SCHEMA}"`));
  await executor.execute(sql`CREATE TABLE IF NOT EXISTS ${journal} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`);
  for (const migration of migrations) {
    await executor.execute(sql`insert into ${journal} ("hash", "created_at") values (${migration.hash}, ${migration.folderMillis})`);
  }
}
