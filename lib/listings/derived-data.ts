import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';

/** One line of progress: what was just done, and how long it took. */
export type Progress = (line: string) => void;

/** A structure derived from the listings: kept row by row by a trigger on insert, and rebuilt whole by a function. */
interface DerivedStructure {
  name: string;
  insertTrigger: string;
  rebuild: SQL;
}

/** Every structure derived from the listings, in the order they are rebuilt (migrations 0008, 0019 and 0022 define them). */
const DERIVED_STRUCTURES: DerivedStructure[] = [
  { name: 'listing totals and filter options', insertTrigger: 'listing_statistics_on_insert_or_delete', rebuild: sql`select listing_statistics_rebuild()` },
  { name: 'search postings', insertTrigger: 'listing_search_postings_on_insert_or_delete', rebuild: sql`select search_postings_rebuild()` },
  { name: 'price band totals', insertTrigger: 'listing_price_band_totals_on_insert_or_delete', rebuild: sql`select listing_price_band_totals_rebuild()` },
];

async function timed(progress: Progress, label: string, work: () => Promise<unknown>): Promise<void> {
  const startedAt = performance.now();
  await work();
  progress(`${label} (${((performance.now() - startedAt) / 1000).toFixed(1)} s)`);
}

/**
 * Rebuilds every structure derived from the listings, one set-wise statement each, then the
 * listings' indexes and the planner's statistics: what `npm run reindex` runs. Readers of a
 * structure wait while it is rebuilt, and then read the same answers as before.
 */
export async function rebuildDerivedData(executor: Executor, progress: Progress): Promise<void> {
  for (const structure of DERIVED_STRUCTURES) await timed(progress, `rebuilt the ${structure.name}`, () => executor.execute(structure.rebuild));
  await timed(progress, "rebuilt the listings' indexes", () => executor.execute(sql`reindex table listings`));
  await timed(progress, 'analyzed the listings and search postings for the planner', () => executor.execute(sql`analyze listings, search_postings, search_other_words`));
}

/** The listings' indexes no constraint needs, with their definitions as the catalog gives them. */
function secondaryIndexes(executor: Executor) {
  return queryRows<{ name: string; definition: string }>(
    executor,
    sql`select index.relname as name, pg_get_indexdef(index.oid) as definition
      from pg_index
      join pg_class as index on index.oid = pg_index.indexrelid
      join pg_class as indexed on indexed.oid = pg_index.indrelid
      where indexed.relname = 'listings' and indexed.relnamespace = current_schema()::regnamespace
        and not exists (select from pg_constraint where pg_constraint.conindid = index.oid)
      order by index.relname`,
  );
}

/**
 * Runs a bulk load of listings with everything derived from them set aside: every index no
 * constraint needs, and the triggers that keep the derived structures row by row. Keeping them
 * up one row at a time dominates a large load, while building each once afterwards, set-wise, is
 * fast. The indexes are replayed from their exact definitions; indexes, triggers and structures
 * are restored also when the load fails.
 */
export async function withDerivedDataDeferred<T>(executor: Executor, load: () => Promise<T>, progress: Progress = () => {}): Promise<T> {
  const indexes = await secondaryIndexes(executor);
  for (const index of indexes) await executor.execute(sql`drop index if exists ${sql.identifier(index.name)}`);
  for (const { insertTrigger } of DERIVED_STRUCTURES) await executor.execute(sql`alter table listings disable trigger ${sql.identifier(insertTrigger)}`);
  try {
    return await load();
  } finally {
    await timed(progress, `built the listings' ${indexes.length} indexes`, async () => {
      for (const index of indexes) await executor.execute(sql.raw(index.definition));
    });
    for (const { insertTrigger } of DERIVED_STRUCTURES) await executor.execute(sql`alter table listings enable trigger ${sql.identifier(insertTrigger)}`);
    for (const structure of DERIVED_STRUCTURES) await timed(progress, `built the ${structure.name}`, () => executor.execute(structure.rebuild));
  }
}
