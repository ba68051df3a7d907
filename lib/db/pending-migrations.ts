import { sql } from 'drizzle-orm/sql/sql';
import journal from '../../drizzle/meta/_journal.json' with { type: 'json' };
import type { Executor } from './client.js';
import { findPostgresError } from './postgres-error.js';
import { queryRows } from './query-rows.js';

/** PostgreSQL's "no such table" and "no such schema": a database no migration has reached. */
const NEVER_MIGRATED = new Set(['42P01', '3F000']);

/**
 * How many of the migrations this build carries the database has not applied. The migrator
 * records each applied migration with its folder's timestamp and applies those newer than the
 * last it recorded; this counts them the same way. The journal is compiled into the function, so
 * a deployment needs no `drizzle/` folder to answer.
 */
export async function pendingMigrationCount(executor: Executor): Promise<number> {
  let lastApplied: number;
  try {
    const [row] = await queryRows<{ last: string | number | null }>(executor, sql`select max(created_at) as last from drizzle.__drizzle_migrations`);
    lastApplied = Number(row?.last ?? 0);
  } catch (error) {
    if (NEVER_MIGRATED.has(findPostgresError(error)?.code ?? '')) return journal.entries.length;
    throw error;
  }
  return journal.entries.filter((entry) => entry.when > lastApplied).length;
}
