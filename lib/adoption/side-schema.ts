import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { ORIGINAL_ENUMS, PRISMA_MIGRATIONS_TABLE } from './original-schema.js';
import { queryRows } from '../db/query-rows.js';
import { SIDE_SCHEMA, type OriginalTables } from './recognise.js';

/**
 * Moves the original's tables (with their indexes and constraints) and enum types out of `public`,
 * so that this schema is built under its own names beside them and the rows copied across.
 */
export async function moveOriginalAside(executor: Executor, tables: OriginalTables): Promise<void> {
  await executor.execute(sql.raw(`CREATE SCHEMA "${SIDE_SCHEMA}"`));
  for (const table of [...tables.keys(), PRISMA_MIGRATIONS_TABLE]) {
    await executor.execute(sql.raw(`ALTER TABLE "public"."${table}" SET SCHEMA "${SIDE_SCHEMA}"`));
  }
  const enums = await queryRows<{ name: string }>(
    executor,
    sql`select t.typname as name from pg_type t join pg_namespace n on n.oid = t.typnamespace
        where n.nspname = 'public' and t.typtype = 'e' and t.typname in (${sql.join(ORIGINAL_ENUMS.map((name) => sql`${name}`), sql`, `)})`,
  );
  for (const { name } of enums) await executor.execute(sql.raw(`ALTER TYPE "public"."${name}" SET SCHEMA "${SIDE_SCHEMA}"`));
}

/** The original's tables go once every row is across. */
export async function dropOriginal(executor: Executor): Promise<void> {
  await executor.execute(sql.raw(`DROP SCHEMA "${SIDE_SCHEMA}" CASCADE`));
}
