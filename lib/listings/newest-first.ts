import { and, inArray } from 'drizzle-orm/sql/expressions/conditions';
import { desc } from 'drizzle-orm/sql/expressions/select';
import { count } from 'drizzle-orm/sql/functions/aggregate';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { listings } from '../db/schema.js';
import { DEFERRED_FROM, PROBE_PER_WANTED, PROBE_WINDOW, WALK_GROWTH, WALK_PER_WANTED, WALK_ROOM, WALK_WINDOW } from './read-tuning.js';

/** A list of listings, newest first, split by what serves each condition. */
export interface NewestFirstSearch {
  /** Conditions an index reads in newest-first order (status, category and status, agent), and out of the trash. */
  indexed: SQL | undefined;
  /** The same listings as `indexed`, on the index's own columns: what a read of the index alone (a deep page's ids) filters by. */
  indexOnly: SQL | undefined;
  /** How many listings `indexed` matches, from the kept totals; asked only when needed. */
  indexedCount: () => Promise<number>;
  /** Conditions checked on each row (text, attributes, price, ...); undefined when none. */
  checked: SQL | undefined;
  /** The kept totals' count of the whole search, when they have it; asked only when counting. */
  keptTotal?: () => Promise<number>;
  offset: number;
  limit: number;
  /** Whether the answer needs the total (a page was asked for). */
  counted: boolean;
}

/** The rows' source: the executor, or the executor with the walk window named `listings`. */
type RowSource = Pick<Executor, 'select'>;

/** A dynamic select of page rows, as drizzle's `$dynamic()` builders are. */
export interface RowQuery<Row> extends PromiseLike<Row[]> {
  where(where: SQL | undefined): RowQuery<Row>;
  orderBy(...columns: SQL[]): RowQuery<Row>;
  limit(limit: number): RowQuery<Row>;
  offset(offset: number): RowQuery<Row>;
}

/**
 * Selects the page's columns from `listings` (and its joins) on `source`, as a dynamic query.
 * `matched` is a column to select as is: the number of matching rows, when counting.
 */
export type RowSelection<Row> = (source: RowSource, matched: SQL<number | null>) => RowQuery<Row & { matched: number | null }>;

/** An order of listings, as ORDER BY terms; each ends newest first, so pages are stable. */
export type ListingOrder = SQL[];

export const newestFirst: ListingOrder = [desc(listings.createdAt), desc(listings.id)];

function pageIds(executor: Executor, indexOnly: SQL | undefined, offset: number, limit: number) {
  return executor.select({ id: listings.id }).from(listings).where(indexOnly).orderBy(...newestFirst).limit(limit).offset(offset);
}

/** The rows without the `matched` column they were selected with. */
export function pageOf<Row>(rows: Array<Row & { matched: number | null }>): Row[] {
  return rows.map(({ matched: _matched, ...row }) => row as Row);
}

/** Selects listing ids only: for readers that need the matches, or their count, before the rows. */
export const selectIds: RowSelection<{ id: string }> = (source, matched) => source.select({ id: listings.id, matched }).from(listings).$dynamic();

/**
 * How many listings a newest-first list of the search holds, as its first page gives it: the kept
 * total without row conditions (no row read), otherwise the walks' count or estimate.
 */
export async function newestFirstTotal(executor: Executor, search: NewestFirstSearch): Promise<MatchedTotal> {
  if (search.checked === undefined) return { total: await search.indexedCount(), exact: true };
  const { total } = await newestFirstPage(executor, { ...search, offset: 0, limit: 1, counted: true }, selectIds);
  return total!;
}

/**
 * The page among the first `window` candidates in `order`, matching rows in order; each carries
 * the count of matches in the window when the search is counted (the walk then reads the whole
 * window). The order must be one an index of the candidates serves.
 */
export function walkInOrder<Row>(executor: Executor, search: NewestFirstSearch, selectRows: RowSelection<Row>, window: number, order: ListingOrder) {
  const walk = executor.$with('listings').as(executor.select().from(listings).where(search.indexed).orderBy(...order).limit(window));
  return selectRows(executor.with(walk), search.counted ? sql<number>`(count(*) over ())::int` : sql`null`)
    .where(search.checked)
    .orderBy(...order)
    .limit(search.limit)
    .offset(search.offset);
}

/**
 * The answer, when the first `window` candidates hold the page (or every candidate): the total is
 * the kept one, the exact count of a window holding every candidate, or the window's share of
 * matches scaled to all candidates (an estimate, flagged). Undefined when the page lies past them.
 */
async function pageWithin<Row>(
  walked: Array<Row & { matched: number | null }>,
  window: number,
  candidates: number,
  search: NewestFirstSearch,
): Promise<{ rows: Row[]; total?: MatchedTotal } | undefined> {
  const windowHoldsAll = candidates <= window;
  if (walked.length < search.limit && !(windowHoldsAll && (walked.length > 0 || search.offset === 0))) return undefined;
  const rows = pageOf(walked);
  if (!search.counted) return { rows };
  if (search.keptTotal !== undefined) return { rows, total: { total: await search.keptTotal(), exact: true } };
  const matchedInWindow = walked[0]?.matched ?? 0;
  if (windowHoldsAll) return { rows, total: { total: matchedInWindow, exact: true } };
  return { rows, total: { total: Math.round((matchedInWindow / window) * candidates), exact: false } };
}

/**
 * A page of listings newest first, and (when counted) how many match, at a cost that does not
 * grow with the table:
 * - Without row conditions, a deep page's ids are read from the index alone (a near page's rows
 *   directly), and the total is the kept one.
 * - With them, the newest PROBE_WINDOW listings of the index (more for a deep page) are read in
 *   order and checked, stopping at the page when no total is wanted. When they hold the page, that
 *   is the answer (see pageWithin() for its total). When their share of matches says the page lies
 *   within the newest WALK_WINDOW, a window sized by it is read the same way (at most three walks).
 * - Otherwise the matches are few: they are found through the filters' own indexes (bitmap scans
 *   only), sorted, and counted exactly.
 */
export async function newestFirstPage<Row>(
  executor: Executor,
  search: NewestFirstSearch,
  selectRows: RowSelection<Row>,
): Promise<{ rows: Row[]; total?: MatchedTotal }> {
  const { indexed, checked, offset, limit, counted } = search;
  if (checked === undefined) {
    const [rows, total] = await Promise.all([
      offset < DEFERRED_FROM
        ? selectRows(executor, sql`null`).where(indexed).orderBy(...newestFirst).limit(limit).offset(offset)
        : selectRows(executor, sql`null`).where(inArray(listings.id, pageIds(executor, search.indexOnly, offset, limit))).orderBy(...newestFirst),
      counted ? search.indexedCount() : undefined,
    ]);
    return { rows: pageOf(rows), total: total === undefined ? undefined : { total, exact: true } };
  }

  const wanted = offset + limit;
  const walkWindow = Math.max(WALK_WINDOW, WALK_PER_WANTED * wanted);
  let window = Math.max(PROBE_WINDOW, PROBE_PER_WANTED * wanted);
  const [probed, candidates] = await Promise.all([walkInOrder(executor, search, selectRows, window, newestFirst), search.indexedCount()]);
  let walked = probed;
  for (;;) {
    const found = await pageWithin(walked, window, candidates, search);
    if (found) return found;
    // Matches in the window: counted over it, or (when the walk stopped short of the page) the ones it passed and gave.
    const matched = walked[0]?.matched ?? offset + walked.length;
    // The window that would hold the page at this density, with room for chance.
    const needed = matched === 0 ? Infinity : Math.ceil((WALK_ROOM * wanted * window) / matched);
    if (window >= walkWindow || needed > walkWindow) break;
    window = Math.min(walkWindow, Math.max(needed, Math.ceil(WALK_GROWTH * window)));
    walked = await walkInOrder(executor, search, selectRows, window, newestFirst);
  }
  return throughFilterIndexes(executor, search, selectRows, newestFirst);
}

/**
 * Runs `work` in a transaction whose statements find rows through bitmap scans of the filters'
 * own indexes alone: for matches known to be few, where the planner, expecting them spread
 * evenly, would rather read the table until a limit that is never reached.
 */
export async function throughBitmapScans<T>(executor: Executor, work: (tx: Executor) => Promise<T>): Promise<T> {
  return executor.transaction(async (tx) => {
    // For this transaction only, in one round trip: bitmap scans alone; room for exact bitmaps (a
    // lossy one rechecks every row of its pages); and no JIT, since pricing every other plan out
    // makes this cheap one look costly enough to compile, which costs far more than running it.
    await tx.execute(sql`select set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true),
      set_config('enable_indexonlyscan', 'off', true), set_config('work_mem', '16MB', true), set_config('jit', 'off', true)`);
    return work(tx);
  });
}

/**
 * A page of matches in `order` when they are few (or the page lies past them): only the filters'
 * own indexes find them without reading every candidate, so the plan may use nothing else
 * (bitmap scans, combined), and the matches are sorted.
 */
export async function throughFilterIndexes<Row>(
  executor: Executor,
  search: NewestFirstSearch,
  selectRows: RowSelection<Row>,
  order: ListingOrder,
): Promise<{ rows: Row[]; total?: MatchedTotal }> {
  const where = and(search.indexed, search.checked);
  const found = await throughBitmapScans(executor, async (tx) => {
    const page = await selectRows(tx, search.counted ? sql<number>`(count(*) over ())::int` : sql`null`)
      .where(where)
      .orderBy(...order)
      .limit(search.limit)
      .offset(search.offset);
    // A page past the matches has no row to carry their count.
    const pastTheEnd = search.counted && search.keptTotal === undefined && page.length === 0 && search.offset > 0;
    const [counted] = pastTheEnd ? await tx.select({ total: count() }).from(listings).where(where) : [];
    return { page, matched: counted?.total ?? page[0]?.matched ?? 0 };
  });
  const rows = pageOf(found.page);
  if (!search.counted) return { rows };
  // Asked after the transaction: kept totals are read through the executor, which an embedded database serves one statement at a time.
  const total = search.keptTotal === undefined ? found.matched : await search.keptTotal();
  return { rows, total: { total, exact: true } };
}
