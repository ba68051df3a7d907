import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';

/** One line of progress: what was just done, and how long it took. */
export type Progress = (line: string) => void;

/**
 * A structure derived from the listings: its tables, kept row by row by a trigger on listings'
 * inserts, and rebuilt whole by a function.
 */
interface DerivedStructure {
  name: string;
  tables: string[];
  insertTrigger: string;
  rebuild: SQL;
}

/** Every structure derived from the listings, in the order they are rebuilt (migrations 0008, 0017, 0028 and 0030 define them). */
const DERIVED_STRUCTURES: DerivedStructure[] = [
  {
    name: 'listing totals, filter options and search terms',
    tables: ['listing_totals', 'agent_listing_totals', 'listing_attribute_values', 'search_terms'],
    insertTrigger: 'listing_statistics_on_insert_or_delete',
    rebuild: sql`select listing_statistics_rebuild()`,
  },
];

/**
 * Memory each index build and rebuild may sort and gather in, for its transaction only: a GIN index
 * of a million listings built in PostgreSQL's default 64 MB flushes to disk over and over, and
 * takes minutes longer.
 */
const BUILD_MEMORY = '512MB';

/** Runs `work` in a transaction (a savepoint within one) whose statements may use BUILD_MEMORY. */
function withBuildMemory<T>(executor: Executor, work: (tx: Executor) => Promise<T>): Promise<T> {
  return executor.transaction(async (tx) => {
    await tx.execute(sql`select set_config('maintenance_work_mem', ${BUILD_MEMORY}, true), set_config('work_mem', ${BUILD_MEMORY}, true)`);
    return work(tx);
  });
}

async function timed(progress: Progress, label: string, work: () => Promise<unknown>): Promise<void> {
  const startedAt = performance.now();
  await work();
  progress(`${label} (${((performance.now() - startedAt) / 1000).toFixed(1)} s)`);
}

/** The indexes of `tables` that no constraint needs, with their definitions as the catalog gives them. */
function secondaryIndexes(executor: Executor, tables: string[]) {
  return queryRows<{ name: string; definition: string }>(
    executor,
    sql`select index.relname as name, pg_get_indexdef(index.oid) as definition
      from pg_index
      join pg_class as index on index.oid = pg_index.indexrelid
      join pg_class as indexed on indexed.oid = pg_index.indrelid
      where indexed.relname = any(${sql.param(tables)}::text[]) and indexed.relnamespace = current_schema()::regnamespace
        and not exists (select from pg_constraint where pg_constraint.conindid = index.oid)
      order by index.relname`,
  );
}

/**
 * Runs `fill` with the secondary indexes of `tables` set aside, then builds each in one sorted pass
 * from its exact definition: far faster than keeping it up row by row. Within one transaction, so
 * a reader never meets a table without its indexes.
 */
function withIndexesSetAside(executor: Executor, tables: string[], fill: (tx: Executor) => Promise<unknown>): Promise<void> {
  return withBuildMemory(executor, async (tx) => {
    const indexes = await secondaryIndexes(tx, tables);
    for (const index of indexes) await tx.execute(sql`drop index ${sql.identifier(index.name)}`);
    await fill(tx);
    for (const index of indexes) await tx.execute(sql.raw(index.definition));
  });
}

/** Rebuilds one structure whole from the listings, its own indexes built after its rows. */
function rebuildStructure(executor: Executor, structure: DerivedStructure): Promise<void> {
  return withIndexesSetAside(executor, structure.tables, (tx) => tx.execute(structure.rebuild));
}

/**
 * Rebuilds every structure derived from the listings, one set-wise statement each, then the
 * listings' indexes and the planner's statistics: what `npm run reindex` runs. Readers of a
 * structure wait while it is rebuilt, and then read the same answers as before.
 */
export async function rebuildDerivedData(executor: Executor, progress: Progress): Promise<void> {
  for (const structure of DERIVED_STRUCTURES) await timed(progress, `rebuilt the ${structure.name}`, () => rebuildStructure(executor, structure));
  await timed(progress, "rebuilt the listings' indexes", () => withBuildMemory(executor, (tx) => tx.execute(sql`reindex table listings`)));
  await timed(progress, 'analyzed the listings and search terms for the planner', () => executor.execute(sql`analyze listings, search_terms`));
}

/**
 * Runs a bulk load of listings with everything derived from them set aside: every index of the
 * listings no constraint needs, and the triggers that keep the derived structures row by row.
 * Keeping them up one row at a time dominates a large load, while building each once afterwards,
 * set-wise, is fast. Indexes, triggers and structures are restored also when the load fails.
 */
export async function withDerivedDataDeferred<T>(executor: Executor, load: () => Promise<T>, progress: Progress = () => {}): Promise<T> {
  const indexes = await secondaryIndexes(executor, ['listings']);
  for (const index of indexes) await executor.execute(sql`drop index ${sql.identifier(index.name)}`);
  for (const { insertTrigger } of DERIVED_STRUCTURES) await executor.execute(sql`alter table listings disable trigger ${sql.identifier(insertTrigger)}`);
  try {
    return await load();
  } finally {
    await timed(progress, `built the listings' ${indexes.length} indexes`, () =>
      withBuildMemory(executor, async (tx) => {
        for (const index of indexes) await tx.execute(sql.raw(index.definition));
      }),
    );
    for (const { insertTrigger } of DERIVED_STRUCTURES) await executor.execute(sql`alter table listings enable trigger ${sql.identifier(insertTrigger)}`);
    // The planner knows nothing yet of the rows just loaded: it sorted a million listings' 80
    // million search terms to group them (103 s), where with statistics it hashes them (52 s).
    await timed(progress, 'analyzed the loaded listings for the planner', () => executor.execute(sql`analyze listings`));
    for (const structure of DERIVED_STRUCTURES) await timed(progress, `built the ${structure.name}`, () => rebuildStructure(executor, structure));
  }
}
