import { availableParallelism } from 'node:os';
import { inArray } from 'drizzle-orm/sql/expressions/conditions';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { Config } from '../config.js';
import type { Database, Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';
import { unfinishedBulkLoads } from '../db/schema.js';

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

type SetAsideIndex = { name: string; definition: string };

/** Sets aside every index of the listings no constraint needs and the triggers that keep the derived structures; answers the indexes. */
async function setAside(executor: Executor): Promise<SetAsideIndex[]> {
  const indexes = await secondaryIndexes(executor, ['listings']);
  for (const index of indexes) await executor.execute(sql`drop index ${sql.identifier(index.name)}`);
  for (const { insertTrigger } of DERIVED_STRUCTURES) await executor.execute(sql`alter table listings disable trigger ${sql.identifier(insertTrigger)}`);
  return indexes;
}

/** Turns back on the triggers setAside() turned off: writes keep the derived structures again. */
async function restoreTriggers(executor: Executor): Promise<void> {
  for (const { insertTrigger } of DERIVED_STRUCTURES) await executor.execute(sql`alter table listings enable trigger ${sql.identifier(insertTrigger)}`);
}

/**
 * Runs a bulk load of listings with everything derived from them set aside: every index of the
 * listings no constraint needs, and the triggers that keep the derived structures row by row.
 * Keeping them up one row at a time dominates a large load, while building each once afterwards,
 * set-wise, is fast (buildSetAside(), one build at a time, in `executor`'s transaction). Indexes,
 * triggers and structures are restored also when the load fails.
 */
export async function withDerivedDataDeferred<T>(executor: Executor, load: () => Promise<T>, progress: Progress = () => {}): Promise<T> {
  const indexes = await setAside(executor);
  try {
    return await load();
  } finally {
    await buildSetAside(executor, indexes, 1, progress);
  }
}

/**
 * Runs `tasks` at most `runners` at a time, each task once the one before it on its runner is
 * done. Every task started is let finish; the first failure is then thrown, and the tasks not yet
 * started are not.
 */
async function inTurns(tasks: Array<() => Promise<unknown>>, runners: number): Promise<void> {
  const waiting = [...tasks];
  const failures: unknown[] = [];
  const runner = async () => {
    for (let task = waiting.shift(); task !== undefined && failures.length === 0; task = waiting.shift()) {
      await task().catch((error: unknown) => failures.push(error));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, runners) }, runner));
  if (failures.length > 0) throw failures[0];
}

/**
 * Opens `count` transactions at once, each on a connection of its own, and runs `work` with all of
 * them: each commits once `work` is done, and each is rolled back when it fails.
 */
function inTransactions<T>(db: Database, count: number, work: (transactions: Executor[]) => Promise<T>, opened: Executor[] = []): Promise<T> {
  if (opened.length >= count) return work(opened);
  return db.transaction((tx) => inTransactions(db, count, work, [...opened, tx]));
}

/**
 * How a bulk load may use the database: over how many connections at once (one per core, as the
 * database server is most often this machine's, at most four), and whether other processes may be
 * using it meanwhile (a server started beside a seed). The embedded database is one process's
 * alone, over one connection.
 */
export interface BulkLoadAccess {
  connections: number;
  shared: boolean;
}

export function bulkLoadAccess(cfg: Config): BulkLoadAccess {
  const embedded = cfg.databaseDriver === 'pglite' || !cfg.databaseUrl;
  return { connections: embedded ? 1 : Math.min(4, availableParallelism()), shared: !embedded };
}

/**
 * Runs `work` as the one process loading or finishing bulk loads, on a shared database: holding a
 * lock, for as long as `work` takes, in a transaction of its own on a connection kept for it,
 * while `work` runs on others. With `wait` false, `work` does not run when another process holds
 * the lock (a seed still loading, whose load is not to be finished under it).
 */
async function asTheLoader(db: Database, access: BulkLoadAccess, wait: boolean, work: () => Promise<void>): Promise<void> {
  if (!access.shared) return work();
  await db.transaction(async (holder) => {
    const lock = sql`hashtext('unfinished_bulk_loads')`;
    const [held] = await queryRows<{ held: boolean }>(holder, wait ? sql`select true as held from pg_advisory_xact_lock(${lock})` : sql`select pg_try_advisory_xact_lock(${lock}) as held`);
    if (held?.held) await work();
  });
}

/**
 * Finishes every bulk load that has not been (unfinished_bulk_loads) and that no other process is
 * still running: see finishLoads(). What the next command or server start does first.
 */
export async function finishBulkLoads(db: Database, access: BulkLoadAccess, progress: Progress = () => {}): Promise<void> {
  await asTheLoader(db, access, false, () => finishLoads(db, access.connections, progress));
}

/**
 * Builds back what a bulk load set aside (setAside()), `runners` builds at once, each in a
 * transaction of its own on `executor` (so on a connection of its own when `executor` is the
 * pool; each builds on one core of the database: the two GIN indexes alone took 98 and 76 s, one
 * after the other, at a million listings). First the triggers that keep the derived structures go
 * back on, and the planner's statistics of the listings are taken: without them, rebuilding the
 * structures sorted a million listings' 80 million search terms to group them (103 s), where with
 * them it hashes them (52 s). Then the indexes and the structures are built, the longest first,
 * so that no runner is left with one of them at the end: the GIN indexes, the derived
 * structures, then the B-trees, which PostgreSQL builds in parallel anyway.
 */
async function buildSetAside(executor: Executor, indexes: SetAsideIndex[], runners: number, progress: Progress): Promise<void> {
  await timed(progress, 'analyzed the loaded listings for the planner', () =>
    executor.transaction(async (tx) => {
      await restoreTriggers(tx);
      await tx.execute(sql`analyze listings`);
    }),
  );
  const buildIndex = (index: SetAsideIndex) => () => timed(progress, `built ${index.name}`, () => withBuildMemory(executor, (tx) => tx.execute(sql.raw(index.definition))));
  const isGin = (index: SetAsideIndex) => /\busing gin\b/i.test(index.definition);
  await inTurns(
    [
      ...indexes.filter(isGin).map(buildIndex),
      ...DERIVED_STRUCTURES.map((structure) => () => timed(progress, `built the ${structure.name}`, () => rebuildStructure(executor, structure))),
      ...indexes.filter((index) => !isGin(index)).map(buildIndex),
    ],
    runners,
  );
}

/**
 * Finishes every bulk load that has not been: each index the loads set aside that is still
 * missing, and everything else buildSetAside() builds, `connections` builds at once. A build
 * stopped half way leaves the load unfinished, to be finished again; what was already built stays.
 */
async function finishLoads(db: Database, connections: number, progress: Progress): Promise<void> {
  const loads = await db.select().from(unfinishedBulkLoads);
  if (loads.length === 0) return;
  const built = new Set((await secondaryIndexes(db, ['listings'])).map((index) => index.name));
  const missing = [...new Map(loads.flatMap((load) => load.indexes).map((index) => [index.name, index])).values()].filter((index) => !built.has(index.name));
  const startedAt = performance.now();
  await buildSetAside(db, missing, connections, progress);
  await db.delete(unfinishedBulkLoads).where(inArray(unfinishedBulkLoads.id, loads.map((load) => load.id)));
  progress(`finished the load: ${missing.length} indexes and the derived data built (${((performance.now() - startedAt) / 1000).toFixed(1)} s)`);
}

/**
 * Runs a bulk load of listings over `connections` transactions at once, each on a connection and
 * a core of the database of its own (the database computes each row's search document, about
 * 170 µs, and builds each index on one core), with everything derived from the listings set aside
 * as withDerivedDataDeferred() does. The setting aside is committed first, with a row of
 * unfinished_bulk_loads naming the indexes, so that the load's transactions and the builds after
 * them can run beside each other; finishLoads() builds them and deletes the row, also when the
 * load fails. A load stopped at any point leaves its listings as they were, or, stopped once its
 * transactions have committed, loaded; the next command or server start finishes it
 * (prepareDatabase()), and one started meanwhile leaves it to this one (asTheLoader()). On the
 * embedded database, one connection.
 */
export async function withDerivedDataSetAside(db: Database, access: BulkLoadAccess, load: (transactions: Executor[]) => Promise<void>, progress: Progress = () => {}): Promise<void> {
  await asTheLoader(db, access, true, async () => {
    await db.transaction(async (tx) => {
      await tx.insert(unfinishedBulkLoads).values({ indexes: await setAside(tx) });
    });
    try {
      await inTransactions(db, access.connections, load);
    } finally {
      await finishLoads(db, access.connections, progress);
    }
  });
}
