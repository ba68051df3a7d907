import { and, inArray } from 'drizzle-orm/sql/expressions/conditions';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';
import { listings } from '../db/schema.js';
import { RANKED_MATCHES } from './read-tuning.js';
import { newestFirstPage, newestFirstTotal, selectIds, type NewestFirstSearch, type RowSelection } from './newest-first.js';

/** What a listing is ranked by, each best when highest, as SQL over `listings`. */
export interface RelevanceKeys {
  worstWord: SQL<number>;
  wholeInTitle: SQL<boolean>;
  allWords: SQL<number>;
}

/**
 * How relevance ranks a search: its keys, and the tiers it never mixes (every match of one before
 * any match of the next), each a condition on the search's matches, best first.
 */
export interface Relevance {
  keys: RelevanceKeys;
  tiers: SQL[];
}

interface RankedMatch {
  id: string;
  createdAt: Date;
  tier: number;
  worstWord: number;
  wholeInTitle: boolean;
  allWords: number;
}

function byRelevance(a: RankedMatch, b: RankedMatch): number {
  return (
    a.tier - b.tier ||
    b.worstWord - a.worstWord ||
    Number(b.wholeInTitle) - Number(a.wholeInTitle) ||
    b.allWords - a.allWords ||
    b.createdAt.getTime() - a.createdAt.getTime() ||
    (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
  );
}

/** The index of the first tier a listing is in. */
function tierOf(tiers: SQL[]): SQL<number> {
  return sql<number>`(case ${sql.join(tiers.map((tier, index) => sql`when ${tier} then ${sql.raw(String(index))}`), sql` `)} else ${sql.raw(String(tiers.length))} end)`;
}

/** Selects each listing's tier and relevance keys. */
function rankedSelection({ keys, tiers }: Relevance): RowSelection<RankedMatch> {
  return (source) =>
    source
      .select({
        id: listings.id,
        createdAt: listings.createdAt,
        tier: tierOf(tiers),
        worstWord: keys.worstWord,
        wholeInTitle: keys.wholeInTitle,
        allWords: keys.allWords,
      })
      .from(listings)
      .$dynamic();
}

/**
 * The newest RANKED_MATCHES matches with their tier and keys, ranked, found as newestFirstPage()
 * finds a page (so at a cost that does not grow with the table).
 */
async function newestRanked(executor: Executor, search: NewestFirstSearch, relevance: Relevance): Promise<{ ranked: RankedMatch[]; total?: MatchedTotal }> {
  const candidates = await newestFirstPage(executor, { ...search, offset: 0, limit: RANKED_MATCHES }, rankedSelection(relevance));
  return { ranked: candidates.rows.sort(byRelevance), total: candidates.total };
}

/** Reads the ids of older matches newest first, at an offset among every match. */
type OlderMatches = (offset: number, limit: number) => Promise<string[]>;

/** Older matches of the search as newestFirstPage() finds a page. */
function walkedOlderMatches(executor: Executor, search: NewestFirstSearch): OlderMatches {
  return async (offset, limit) => (await newestFirstPage(executor, { ...search, offset, limit, counted: false }, selectIds)).rows.map((row) => row.id);
}

/** The page's ids within one tier (or a search of one tier): its ranked matches at the offset, then (past a full window) older matches newest first. */
async function rankedThenOlderPageIds(search: Pick<NewestFirstSearch, 'offset' | 'limit'>, ranked: RankedMatch[], older: OlderMatches): Promise<string[]> {
  const { offset, limit } = search;
  const fromRanked = ranked.slice(offset, offset + limit).map((match) => match.id);
  const olderWanted = ranked.length < RANKED_MATCHES ? 0 : limit - fromRanked.length;
  if (olderWanted === 0) return fromRanked;
  return [...fromRanked, ...(await older(Math.max(offset, RANKED_MATCHES), olderWanted))];
}

/**
 * The page's ids tier by tier, each tier's matches ranked as a search of their own. `newest` (the
 * whole search's newest matches, ranked) serves as a tier's own when every one of them is in it.
 * A tier that ends before the page is counted to place the next one; that count is an estimate
 * only past thousands of matches, where the next tier's rows then shift by as much.
 */
async function pageIdsByTier(executor: Executor, search: NewestFirstSearch, relevance: Relevance, newest: RankedMatch[]): Promise<string[]> {
  const ids: string[] = [];
  // The page's next row, counted from the start of the tier at hand.
  let offset = search.offset;
  for (const [index, tier] of relevance.tiers.entries()) {
    const tierSearch = { ...search, checked: and(search.checked, tier), counted: false };
    const ranked = newest.every((match) => match.tier === index) ? newest : (await newestRanked(executor, tierSearch, relevance)).ranked;
    const found = await rankedThenOlderPageIds({ offset, limit: search.limit - ids.length }, ranked, walkedOlderMatches(executor, tierSearch));
    ids.push(...found);
    if (ids.length === search.limit || index === relevance.tiers.length - 1) break;
    const inTier =
      found.length > 0 || offset === 0
        ? offset + found.length
        : (await newestFirstTotal(executor, tierSearch)).total;
    offset = Math.max(0, offset - inTier);
  }
  return ids;
}

/**
 * A page of listings by relevance: every match of a tier before any of the next; within a tier,
 * its newest RANKED_MATCHES matches ordered by their keys (newest within ties), then its older
 * matches newest first. The total is the newest-first list's. When the whole search has fewer
 * matches than a window ranks, they are all ranked at once.
 */
export async function relevantFirstPage<Row extends { id: string }>(
  executor: Executor,
  search: NewestFirstSearch,
  relevance: Relevance,
  selectRows: RowSelection<Row>,
): Promise<{ rows: Row[]; total?: MatchedTotal }> {
  const { ranked, total } = await newestRanked(executor, search, relevance);
  const ids =
    ranked.length < RANKED_MATCHES ? await rankedThenOlderPageIds(search, ranked, walkedOlderMatches(executor, search)) : await pageIdsByTier(executor, search, relevance, ranked);
  return { rows: await rowsInOrder(executor, ids, selectRows), total };
}

/** The rows of `ids`, in that order. */
export async function rowsInOrder<Row extends { id: string }>(executor: Executor, ids: string[], selectRows: RowSelection<Row>): Promise<Row[]> {
  if (ids.length === 0) return [];
  const found = await selectRows(executor).where(inArray(listings.id, ids));
  const byId = new Map(found.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)!);
}

/**
 * The ids of a page by relevance, as relevantFirstPage() gives it, of a search ranked in one tier
 * whose matches are exactly what `matchIds` reads (a page of their ids newest first, as a
 * subquery): the newest RANKED_MATCHES are read by their ids and ranked, older ones are a page of
 * those ids. A page past the ranked ones is older matches alone, so nothing is ranked for it.
 */
export async function relevantPostedPageIds(
  executor: Executor,
  search: Pick<NewestFirstSearch, 'offset' | 'limit'>,
  relevance: Relevance,
  matchIds: (offset: number, limit: number) => SQL,
): Promise<string[]> {
  const older: OlderMatches = async (offset, limit) => (await queryRows<{ listingId: string }>(executor, matchIds(offset, limit))).map((row) => row.listingId);
  if (search.offset >= RANKED_MATCHES) return older(search.offset, search.limit);
  const newest = await rankedSelection(relevance)(executor).where(inArray(listings.id, matchIds(0, RANKED_MATCHES)));
  return rankedThenOlderPageIds(search, newest.sort(byRelevance), older);
}
