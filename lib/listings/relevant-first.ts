import { inArray } from 'drizzle-orm/sql/expressions/conditions';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { listings } from '../db/schema.js';
import { newestFirstPage, pageOf, selectIds, type NewestFirstSearch, type RowSelection } from './newest-first.js';

/**
 * The newest matches a relevance order ranks. Ranking every match of a broad word (a brand, among
 * a million listings) would read and sort all of them for each page; past these, matches follow
 * newest first, which is what a shopper scrolling that far sees anyway.
 */
export const RANKED_MATCHES = 200;

/** What a listing is ranked by, each best when highest, as SQL over `listings`. */
export interface RelevanceKeys {
  worstWord: SQL<number>;
  wholeInTitle: SQL<boolean>;
  allWords: SQL<number>;
}

interface RankedMatch {
  id: string;
  createdAt: Date;
  worstWord: number;
  wholeInTitle: boolean;
  allWords: number;
}

function byRelevance(a: RankedMatch, b: RankedMatch): number {
  return (
    b.worstWord - a.worstWord ||
    Number(b.wholeInTitle) - Number(a.wholeInTitle) ||
    b.allWords - a.allWords ||
    b.createdAt.getTime() - a.createdAt.getTime() ||
    (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
  );
}

/**
 * A page of listings by relevance: the newest RANKED_MATCHES matches (found as newestFirstPage()
 * finds a page, so at a cost that does not grow with the table) ordered by their keys, newest
 * within ties, then any older matches newest first. The total is the newest-first list's.
 */
export async function relevantFirstPage<Row extends { id: string }>(
  executor: Executor,
  search: NewestFirstSearch,
  keys: RelevanceKeys,
  selectRows: RowSelection<Row>,
): Promise<{ rows: Row[]; total?: MatchedTotal }> {
  const { offset, limit } = search;
  const candidates = await newestFirstPage<RankedMatch>(executor, { ...search, offset: 0, limit: RANKED_MATCHES }, (source, matched) =>
    source
      .select({ id: listings.id, createdAt: listings.createdAt, worstWord: keys.worstWord, wholeInTitle: keys.wholeInTitle, allWords: keys.allWords, matched })
      .from(listings)
      .$dynamic(),
  );
  const ranked = candidates.rows.sort(byRelevance).slice(offset, offset + limit).map((match) => match.id);
  const olderWanted = candidates.rows.length < RANKED_MATCHES ? 0 : limit - ranked.length;
  const older =
    olderWanted === 0
      ? []
      : (
          await newestFirstPage<{ id: string }>(
            executor,
            { ...search, offset: Math.max(offset, RANKED_MATCHES), limit: olderWanted, counted: false },
            selectIds,
          )
        ).rows.map((row) => row.id);
  const ids = [...ranked, ...older];
  if (ids.length === 0) return { rows: [], total: candidates.total };
  const found = await selectRows(executor, sql`null`).where(inArray(listings.id, ids));
  const byId = new Map(pageOf(found).map((row) => [row.id, row]));
  return { rows: ids.map((id) => byId.get(id)!), total: candidates.total };
}
