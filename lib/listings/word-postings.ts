import { and, eq } from 'drizzle-orm/sql/expressions/conditions';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import { getTableColumns } from 'drizzle-orm/utils';
import type { Executor } from '../db/client.js';
import { listings } from '../db/schema.js';
import type { NewestFirstSearch, RowSelection } from './newest-first.js';

/** A word of a storefront search as the postings serve it: as typed, and the known words it stands for (typos allowed). */
export interface PostedWord {
  typed: string;
  known: string[];
}

/** How a search word is read in price order: the posted words holding it, and where else it may be found. */
export interface PostedLookup {
  /** Posted words (search_terms words) holding the typed word's longest run of letters, and its known words. */
  words: string[];
  /** Postings of those words: a listing holding two of them is counted twice. */
  postings: number;
  /** LIKE pattern of the run among the listings' other words (search_other_words), when any holds it. */
  otherPattern?: string;
  /** Listings whose other words hold the run. */
  otherListings: number;
}

/**
 * The most posted words one search word may stand for: a short run held by many words (`pro` in
 * a shop of thousands of models) is read the way other searches are.
 */
const MOST_POSTED_WORDS = 64;

/**
 * The most listings that may hold a search word only among their other words (their description):
 * each is read and sorted with the postings. A word found in more descriptions is common, and a
 * walk in price order finds its matches soon anyway.
 */
const MOST_OTHER_LISTINGS = 1_000;

/** Trigrams need three letters: a shorter run cannot be looked up among the words by index. */
const SHORTEST_RUN = 3;

/**
 * For each search word: its longest run of letters and digits (split as search words are, so any
 * listing text holding the typed word holds a word holding this run), and the posted words holding
 * the run or standing for the typed word, with their postings. One statement of index lookups.
 */
async function postedWordsHolding(executor: Executor, words: PostedWord[]) {
  const asked = JSON.stringify(words.map((word, position) => ({ position, typed: word.typed, known: word.known })));
  const { rows } = (await executor.execute(sql`
    select asked.position, run.r as run, counted.words, counted.postings, counted.held
    from jsonb_to_recordset(${asked}::jsonb) as asked(position int, typed text, known text[])
    cross join lateral (
      select r from regexp_split_to_table(lower(asked.typed), '[[:space:][:punct:]]+') as r
      where r <> '' order by char_length(r) desc, r limit 1
    ) as run
    cross join lateral (
      select coalesce(array_agg(held.term), '{}') as words, coalesce(sum(held.listings), 0)::int as postings, count(*)::int as held
      from (
        select term, listings from search_terms
        where kind = 'word' and (term like '%' || run.r || '%' or term = any (asked.known))
        limit ${MOST_POSTED_WORDS + 1}
      ) as held
    ) as counted
    where char_length(run.r) >= ${SHORTEST_RUN}`)) as unknown as {
    rows: Array<{ position: number; run: string; words: string[]; postings: number; held: number }>;
  };
  return rows.filter((row) => row.held <= MOST_POSTED_WORDS);
}

/**
 * How many listings (up to one past MOST_OTHER_LISTINGS) hold each pattern among their other words.
 * Each count is its own subquery with its pattern as a value, planned for it: a rare run through
 * the trigram index, a common one by reading rows until the limit.
 */
async function otherListingsHolding(executor: Executor, patterns: string[]): Promise<number[]> {
  const counts = patterns.map(
    (pattern) => sql`(select count(*)::int from (select 1 from search_other_words where words like ${pattern} limit ${MOST_OTHER_LISTINGS + 1}) as other)`,
  );
  const { rows } = (await executor.execute(sql`select array[${sql.join(counts, sql`, `)}] as counts`)) as unknown as { rows: Array<{ counts: number[] }> };
  return rows[0]!.counts;
}

/**
 * Each search word that the postings can give in price order: too short a run, one held by too
 * many posted words, or found in too many descriptions is left out.
 */
async function lookUp(executor: Executor, words: PostedWord[]): Promise<PostedLookup[]> {
  const held = await postedWordsHolding(executor, words);
  if (held.length === 0) return [];
  // A run is split at punctuation, so it holds no `%`, `_` or `\` to escape.
  const patterns = held.map((row) => `%${row.run}%`);
  const others = await otherListingsHolding(executor, patterns);
  return held.flatMap((row, index) => {
    const otherListings = others[index]!;
    if (otherListings > MOST_OTHER_LISTINGS) return [];
    return [{ words: row.words, postings: row.postings, otherPattern: otherListings > 0 ? patterns[index] : undefined, otherListings }];
  });
}

/**
 * The search word whose listings the postings give in price order at the least cost (every other
 * word is checked on each of them), or undefined when no word can be read so: each is too short,
 * held by too many words, or found in too many descriptions.
 */
export async function cheapestPostedWord(executor: Executor, words: PostedWord[]): Promise<PostedLookup | undefined> {
  if (words.length === 0) return undefined;
  const lookups = await lookUp(executor, words);
  const cost = (lookup: PostedLookup) => lookup.postings + lookup.otherListings;
  return lookups.reduce<PostedLookup | undefined>((best, lookup) => (best === undefined || cost(lookup) < cost(best) ? lookup : best), undefined);
}

/**
 * Candidates in price order (newest first among equal prices): the first `window` of the word's
 * postings and of the listings holding it among their other words, each listing once.
 */
function candidatesInPriceOrder(lookup: PostedLookup, direction: 'asc' | 'desc', window: number): SQL {
  const order = direction === 'asc' ? sql`price asc, "createdAt" desc, "listingId" desc` : sql`price desc, "createdAt" desc, "listingId" desc`;
  const branches = lookup.words.map(
    (word) => sql`(select "listingId", price, "createdAt" from search_postings where word = ${word} order by ${order} limit ${window})`,
  );
  if (lookup.otherPattern !== undefined) {
    branches.push(sql`(select listing.id, listing.price, listing."createdAt" from listings as listing
      where listing.status = 'AVAILABLE' and listing.id in (select "listingId" from search_other_words where words like ${lookup.otherPattern}))`);
  }
  return sql`(select "listingId", price, "createdAt" from (${sql.join(branches, sql` union `)}) as candidate order by ${order} limit ${window})`;
}

/**
 * The page among the first `window` candidates of the word in price order, matching rows in order.
 * The candidates' listings carry the postings' price and creation time, so the plan knows they come
 * in the page's order and stops at the page. `order` must be the price order of `direction`.
 */
export function walkPostings<Row>(
  executor: Executor,
  search: NewestFirstSearch,
  selectRows: RowSelection<Row>,
  lookup: PostedLookup,
  direction: 'asc' | 'desc',
  window: number,
  order: SQL[],
) {
  const candidates = executor.$with('listings').as(
    executor
      .select({
        ...getTableColumns(listings),
        id: sql<string>`posted."listingId"`.as('id'),
        price: sql<number>`posted.price`.as('price'),
        createdAt: sql<Date>`posted."createdAt"`.as('createdAt'),
      })
      .from(sql`${candidatesInPriceOrder(lookup, direction, window)} as posted`)
      .innerJoin(listings, eq(listings.id, sql`posted."listingId"`)),
  );
  return selectRows(executor.with(candidates), sql`null`)
    .where(and(search.indexed, search.checked))
    .orderBy(...order)
    .limit(search.limit)
    .offset(search.offset);
}
