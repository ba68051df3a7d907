import { and, inArray } from 'drizzle-orm/sql/expressions/conditions';
import { desc } from 'drizzle-orm/sql/expressions/select';
import { count } from 'drizzle-orm/sql/functions/aggregate';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { listings } from '../db/schema.js';

/**
 * The newest listings a filtered page reads in index order before it turns to its filters' own
 * indexes. Within it a page of dense matches is found early, as the plain statement would find it;
 * past it the matches are sparse (or the filters anti-correlated, like a word no listing of the
 * chosen brand contains), where walking on would read the whole table.
 */
export const WALK_WINDOW = 10_000;

/** A list of listings, newest first, split by what serves each condition. */
export interface NewestFirstSearch {
  /** Conditions an index reads in newest-first order: status, category and status, agent. */
  indexed: SQL | undefined;
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

const newestFirst = [desc(listings.createdAt), desc(listings.id)];

/**
 * From this offset on, a page's ids are read from the index alone before its rows are: skipping
 * that many rows through the table would read each of them. Nearer pages read their rows directly.
 */
export const DEFERRED_FROM = 500;

function pageIds(executor: Executor, indexed: SQL | undefined, offset: number, limit: number) {
  return executor.select({ id: listings.id }).from(listings).where(indexed).orderBy(...newestFirst).limit(limit).offset(offset);
}

/** The rows without the `matched` column they were selected with. */
export function pageOf<Row>(rows: Array<Row & { matched: number | null }>): Row[] {
  return rows.map(({ matched: _matched, ...row }) => row as Row);
}

/** Selects listing ids only: for readers that need the matches, or their count, before the rows. */
export const selectIds: RowSelection<{ id: string }> = (source, matched) => source.select({ id: listings.id, matched }).from(listings).$dynamic();

/**
 * A page of listings newest first, and (when counted) how many match, at a cost that does not
 * grow with the table:
 * - Without row conditions, a deep page's ids are read from the index alone (a near page's rows
 *   directly), and the total is the kept one.
 * - With them, the newest WALK_WINDOW listings of the index (more for a deep page) are read in
 *   order and checked, stopping at the page when no total is wanted. When they hold the page, that
 *   is the answer, and the total is the kept one, the exact count of a window that holds every
 *   candidate, or the window's share of matches scaled to all candidates (an estimate, flagged).
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
        : selectRows(executor, sql`null`).where(inArray(listings.id, pageIds(executor, indexed, offset, limit))).orderBy(...newestFirst),
      counted ? search.indexedCount() : undefined,
    ]);
    return { rows: pageOf(rows), total: total === undefined ? undefined : { total, exact: true } };
  }

  const window = Math.max(WALK_WINDOW, 4 * (offset + limit));
  const walk = executor.$with('listings').as(executor.select().from(listings).where(indexed).orderBy(...newestFirst).limit(window));
  const [walked, candidates] = await Promise.all([
    selectRows(executor.with(walk), counted ? sql<number>`(count(*) over ())::int` : sql`null`)
      .where(checked)
      .orderBy(...newestFirst)
      .limit(limit)
      .offset(offset),
    search.indexedCount(),
  ]);
  const windowHoldsAll = candidates <= window;
  if (walked.length === limit || (windowHoldsAll && (walked.length > 0 || offset === 0))) {
    const rows = pageOf(walked);
    if (!counted) return { rows };
    if (search.keptTotal !== undefined) return { rows, total: { total: await search.keptTotal(), exact: true } };
    const matchedInWindow = walked[0]?.matched ?? 0;
    if (windowHoldsAll) return { rows, total: { total: matchedInWindow, exact: true } };
    return { rows, total: { total: Math.round((matchedInWindow / window) * candidates), exact: false } };
  }
  return fewMatches(executor, search, selectRows);
}

/**
 * The matches are few (or the page lies past them): only the filters' own indexes find them
 * without reading every candidate, so the plan may use nothing else (bitmap scans, combined).
 */
async function fewMatches<Row>(executor: Executor, search: NewestFirstSearch, selectRows: RowSelection<Row>): Promise<{ rows: Row[]; total?: MatchedTotal }> {
  const where = and(search.indexed, search.checked);
  const found = await executor.transaction(async (tx) => {
    // For this transaction only, in one round trip: bitmap scans alone; room for exact bitmaps (a
    // lossy one rechecks every row of its pages); and no JIT, since pricing every other plan out
    // makes this cheap one look costly enough to compile, which costs far more than running it.
    await tx.execute(sql`select set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true),
      set_config('enable_indexonlyscan', 'off', true), set_config('work_mem', '16MB', true), set_config('jit', 'off', true)`);
    const page = await selectRows(tx, sql<number>`(count(*) over ())::int`)
      .where(where)
      .orderBy(...newestFirst)
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
