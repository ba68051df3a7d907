import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { PRISMA_MIGRATIONS_TABLE } from './original-schema.js';
import { queryRows } from '../db/query-rows.js';

/** A column's name and type, as `format_type` writes it (`text`, `timestamp(3) without time zone`, …). */
export type ColumnTypes = ReadonlyMap<string, string>;

/** A Prisma migration row: whether it finished and whether it was rolled back. */
export interface PrismaMigration {
  name: string;
  finished: boolean;
  rolledBack: boolean;
}

/** What adoption reads of a database before deciding anything. */
export interface DatabaseShape {
  /** Tables, views and other relations of the `public` schema, with their columns. */
  relations: ReadonlyMap<string, ColumnTypes>;
  /** The rows of `_prisma_migrations`, when that table exists. */
  prismaMigrations: PrismaMigration[] | undefined;
  /** How many migrations drizzle's journal records, when the journal exists. */
  drizzleMigrations: number | undefined;
  /** Schemas besides the usual ones (`public`, `drizzle`, the system's). */
  schemas: string[];
}

export const DRIZZLE_SCHEMA = 'drizzle';
export const DRIZZLE_JOURNAL = '__drizzle_migrations';

async function readRelations(executor: Executor): Promise<Map<string, Map<string, string>>> {
  const rows = await queryRows<{ relation: string; column: string | null; type: string | null }>(
    executor,
    sql`select c.relname as relation, a.attname as column, format_type(a.atttypid, a.atttypmod) as type
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f')
        order by c.relname, a.attnum`,
  );
  const relations = new Map<string, Map<string, string>>();
  for (const row of rows) {
    const columns = relations.get(row.relation) ?? new Map<string, string>();
    if (row.column !== null && row.type !== null) columns.set(row.column, row.type);
    relations.set(row.relation, columns);
  }
  return relations;
}

async function tableExists(executor: Executor, schema: string, table: string): Promise<boolean> {
  const [row] = await queryRows<{ found: boolean }>(executor, sql`select to_regclass(${`"${schema}"."${table}"`}) is not null as found`);
  return row?.found ?? false;
}

export async function inspectDatabase(executor: Executor): Promise<DatabaseShape> {
  const relations = await readRelations(executor);
  const prismaColumns = relations.get(PRISMA_MIGRATIONS_TABLE);
  const prismaMigrations =
    prismaColumns && ['migration_name', 'finished_at', 'rolled_back_at'].every((column) => prismaColumns.has(column))
      ? (
          await queryRows<{ name: string; finished: boolean; rolled_back: boolean }>(
            executor,
            sql.raw(
              `select migration_name as name, finished_at is not null as finished, rolled_back_at is not null as rolled_back from "${PRISMA_MIGRATIONS_TABLE}" order by started_at, migration_name`,
            ),
          )
        ).map((row) => ({ name: row.name, finished: row.finished, rolledBack: row.rolled_back }))
      : undefined;
  const drizzleMigrations = (await tableExists(executor, DRIZZLE_SCHEMA, DRIZZLE_JOURNAL))
    ? Number((await queryRows<{ count: string | number }>(executor, sql.raw(`select count(*) as count from "${DRIZZLE_SCHEMA}"."${DRIZZLE_JOURNAL}"`)))[0]?.count ?? 0)
    : undefined;
  const schemas = (
    await queryRows<{ name: string }>(
      executor,
      sql`select nspname as name from pg_namespace
          where nspname not in ('public', ${DRIZZLE_SCHEMA}, 'information_schema') and nspname not like 'pg\_%'
          order by nspname`,
    )
  ).map((row) => row.name);
  return { relations, prismaMigrations, drizzleMigrations, schemas };
}
