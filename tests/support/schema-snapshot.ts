import type { RawDatabase } from './original-database.js';

const SCHEMAS = `('public', 'drizzle')`;

/**
 * Everything of a database's schema that a migration decides, read from the catalog in a form two
 * databases can be compared by: columns (position, type, nullability, default), relations and their
 * options, indexes, constraints, triggers, enums and other types, functions, extensions, extended
 * statistics, sequences, schemas, and drizzle's migration journal.
 */
export async function schemaSnapshot(db: RawDatabase) {
  return {
    schemas: await db.query(`select nspname as name from pg_namespace where nspname not like 'pg\\_%' and nspname <> 'information_schema' order by 1`),
    relations: await db.query(
      `select n.nspname as schema, c.relname as name, c.relkind::text as kind, c.reloptions as options, c.relpersistence::text as persistence, c.relrowsecurity as row_security
       from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname in ${SCHEMAS} order by 1, 2`,
    ),
    columns: await db.query<{ table: string; column: string }>(
      `select n.nspname as schema, c.relname as table, a.attnum as position, a.attname as column, format_type(a.atttypid, a.atttypmod) as type,
         a.attnotnull as not_null, pg_get_expr(d.adbin, d.adrelid) as default, a.attidentity::text as identity, a.attgenerated::text as generated,
         a.attcollation::regcollation::text as collation
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
       left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
       where n.nspname in ${SCHEMAS} and c.relkind in ('r', 'p', 'v', 'm') and a.attnum > 0 and not a.attisdropped order by 1, 2, 3`,
    ),
    indexes: await db.query(`select schemaname as schema, tablename as table, indexname as name, indexdef as definition from pg_indexes where schemaname in ${SCHEMAS} order by 1, 2, 3`),
    constraints: await db.query<{ table: string; name: string }>(
      `select n.nspname as schema, con.conrelid::regclass::text as table, con.conname as name, con.contype::text as type, pg_get_constraintdef(con.oid) as definition,
         con.condeferrable as deferrable, con.convalidated as validated
       from pg_constraint con join pg_namespace n on n.oid = con.connamespace where n.nspname in ${SCHEMAS} order by 1, 2, 3`,
    ),
    triggers: await db.query(
      `select t.tgrelid::regclass::text as table, t.tgname as name, pg_get_triggerdef(t.oid) as definition, t.tgenabled::text as enabled
       from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
       where not t.tgisinternal and n.nspname in ${SCHEMAS} order by 1, 2`,
    ),
    enums: await db.query(
      `select n.nspname as schema, t.typname as name, array_agg(e.enumlabel::text order by e.enumsortorder) as labels
       from pg_type t join pg_namespace n on n.oid = t.typnamespace join pg_enum e on e.enumtypid = t.oid group by 1, 2 order by 1, 2`,
    ),
    types: await db.query(
      `select n.nspname as schema, t.typname as name, t.typtype::text as kind from pg_type t join pg_namespace n on n.oid = t.typnamespace
       where n.nspname in ${SCHEMAS} order by 1, 2`,
    ),
    functions: await db.query(
      `select n.nspname as schema, p.proname as name, pg_get_function_identity_arguments(p.oid) as arguments, p.prokind::text as kind,
         case when p.prokind in ('f', 'p') then pg_get_functiondef(p.oid) end as definition
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname in ${SCHEMAS} order by 1, 2, 3`,
    ),
    extensions: await db.query(`select extname as name, extversion as version, extnamespace::regnamespace::text as schema from pg_extension order by 1`),
    statistics: await db.query(`select stxname as name, pg_get_statisticsobjdef(oid) as definition from pg_statistic_ext order by 1`),
    sequences: await db.query(
      `select schemaname as schema, sequencename as name, data_type::text as type, start_value::text as start, increment_by::text as increment, last_value::text as last
       from pg_sequences where schemaname in ${SCHEMAS} order by 1, 2`,
    ),
    journal: (await db.query<{ found: boolean }>(`select to_regclass('drizzle.__drizzle_migrations') is not null as found`))[0]!.found
      ? await db.query(`select id, hash, created_at::text as created_at from drizzle.__drizzle_migrations order by id`)
      : [],
  };
}

/** The number of rows of every table in `public`. */
export async function rowCounts(db: RawDatabase): Promise<Record<string, number>> {
  const tables = await db.query<{ name: string }>(`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' order by 1`);
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = Number((await db.query<{ count: string | number }>(`select count(*) as count from "${name}"`))[0]!.count);
  return counts;
}
