import { and, inArray } from 'drizzle-orm/sql/expressions/conditions';
import { desc } from 'drizzle-orm/sql/expressions/select';
import { count } from 'drizzle-orm/sql/functions/aggregate';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import { cappedTotal, EXACT_TOTAL_LIMIT, type MatchedTotal } from '../db/bounded-total.js';
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

/** Selects the page's columns from `listings` (and its joins) on `source`, as a dynamic query. */
export type RowSelection<Row> = (source: RowSource) => RowQuery<Row>;

/** An order of listings, as ORDER BY terms; each ends newest first, so pages are stable. */
export type ListingOrder = SQL[];

export const newestFirst: ListingOrder = [desc(listings.createdAt), desc(listings.id)];

function indexOnlyPageIds(executor: Executor, indexOnly: SQL | undefined, offset: number, limit: number) {
  return executor.select({ id: listings.id }).from(listings).where(indexOnly).orderBy(...newestFirst).limit(limit).offset(offset);
}

/** Selects listing ids only: for readers that need the matches before the rows. */
export const selectIds: RowSelection<{ id: string }> = (source) => source.select({ id: listings.id }).from(listings).$dynamic();

/**
 * How many listings match the search, counted one by one through the filters' own indexes and
 * stopping at EXACT_TOTAL_LIMIT: at most that many matching rows are read, however many match.
 */
async function countedMatches(executor: Executor, search: NewestFirstSearch): Promise<MatchedTotal> {
  const matching = executor.select({ id: listings.id }).from(listings).where(and(search.indexed, search.checked)).limit(EXACT_TOTAL_LIMIT);
  const [counted] = await throughBitmapScans(executor, (tx) => tx.select({ total: count() }).from(matching.as('matching')));
  return cappedTotal(counted?.total ?? 0);
}

/**
 * How many listings the search holds: the kept total when there is one (no row read), or the
 * index's kept count without row conditions; otherwise counted, up to EXACT_TOTAL_LIMIT.
 */
export async function newestFirstTotal(executor: Executor, search: NewestFirstSearch): Promise<MatchedTotal> {
  if (search.keptTotal !== undefined) return { total: await search.keptTotal(), exact: true };
  if (search.checked === undefined) return { total: await search.indexedCount(), exact: true };
  return countedMatches(executor, search);
}

/**
 * The page among the first `window` candidates in `order`, matching rows in order. The order must
 * be one an index of the candidates serves.
 */
export function walkInOrder<Row>(executor: Executor, search: NewestFirstSearch, selectRows: RowSelection<Row>, window: number, order: ListingOrder) {
  const walk = executor.$with('listings').as(executor.select().from(listings).where(search.indexed).orderBy(...order).limit(window));
  return selectRows(executor.with(walk)).where(search.checked).orderBy(...order).limit(search.limit).offset(search.offset);
}

/**
 * The page's rows newest first, at a cost that does not grow with the table:
 * - Without row conditions, a deep page's ids are read from the index alone (a near page's rows directly).
 * - With them, the newest PROBE_WINDOW listings of the index (more for a deep page) are read in
 *   order and checked, stopping at the page. When they hold the page (or every candidate), that
 *   is the answer. When the matches they gave say the page lies within the newest WALK_WINDOW, a
 *   window sized by them is read the same way (at most three walks).
 * - Otherwise the matches are few: they are found through the filters' own indexes (bitmap scans only), and sorted.
 */
async function newestFirstRows<Row>(executor: Executor, search: NewestFirstSearch, selectRows: RowSelection<Row>): Promise<Row[]> {
  const { indexed, checked, offset, limit } = search;
  if (checked === undefined) {
    return offset < DEFERRED_FROM
      ? selectRows(executor).where(indexed).orderBy(...newestFirst).limit(limit).offset(offset)
      : selectRows(executor).where(inArray(listings.id, indexOnlyPageIds(executor, search.indexOnly, offset, limit))).orderBy(...newestFirst);
  }
  const wanted = offset + limit;
  const walkWindow = Math.max(WALK_WINDOW, WALK_PER_WANTED * wanted);
  let window = Math.max(PROBE_WINDOW, PROBE_PER_WANTED * wanted);
  const [probed, candidates] = await Promise.all([walkInOrder(executor, search, selectRows, window, newestFirst), search.indexedCount()]);
  let walked = probed;
  for (;;) {
    const windowHoldsAll = candidates <= window;
    if (walked.length === limit || (windowHoldsAll && (walked.length > 0 || offset === 0))) return walked;
    // The walk stopped short of the page: it passed every match in the window, and gave those past the offset.
    const matched = offset + walked.length;
    // The window that would hold the page at this density, with room for chance.
    const needed = matched === 0 ? Infinity : Math.ceil((WALK_ROOM * wanted * window) / matched);
    if (window >= walkWindow || needed > walkWindow) break;
    window = Math.min(walkWindow, Math.max(needed, Math.ceil(WALK_GROWTH * window)));
    walked = await walkInOrder(executor, search, selectRows, window, newestFirst);
  }
  return throughFilterIndexes(executor, search, selectRows, newestFirst);
}

/**
 * A page of listings newest first (see newestFirstRows()) and, when counted, how many match (see
 * newestFirstTotal()), read side by side.
 */
export async function newestFirstPage<Row>(
  executor: Executor,
  search: NewestFirstSearch,
  selectRows: RowSelection<Row>,
): Promise<{ rows: Row[]; total?: MatchedTotal }> {
  const [rows, total] = await Promise.all([newestFirstRows(executor, search, selectRows), search.counted ? newestFirstTotal(executor, search) : undefined]);
  return { rows, total };
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
export function throughFilterIndexes<Row>(executor: Executor, search: NewestFirstSearch, selectRows: RowSelection<Row>, order: ListingOrder): Promise<Row[]> {
  return throughBitmapScans(executor, async (tx) =>
    selectRows(tx).where(and(search.indexed, search.checked)).orderBy(...order).limit(search.limit).offset(search.offset),
  );
}
