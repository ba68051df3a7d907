import { and, eq, gte, lte } from 'drizzle-orm/sql/expressions/conditions';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import { getTableColumns } from 'drizzle-orm/utils';
import { cappedTotal, EXACT_TOTAL_LIMIT, type MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';
import { listingAttributeValues, listings, searchOtherWords, searchPostings, searchTerms } from '../db/schema.js';
import { COUNTED_TERM_POSTINGS, MOST_OTHER_LISTINGS, MOST_POSTED_WORDS } from './read-tuning.js';
import type { NewestFirstSearch, RowSelection } from './newest-first.js';

/** A word of a storefront search as the postings serve it: as typed, and the known words it stands for (typos allowed). */
export interface PostedWord {
  typed: string;
  known: string[];
  /** Matched only as a whole word: its listings are the postings of its known words, counted by the kept word counts. */
  wholeOnly: boolean;
}

/** What a storefront search can be read by in price order: its words, and its attribute filters as `name=value` terms. */
export interface PostedSearch {
  words: PostedWord[];
  terms: string[];
}

/**
 * One condition of a search read in price order from the postings (search_postings): every key
 * whose listings may meet it, and the few listings it may meet only outside the postings.
 */
export interface PostedCondition {
  /** Posted keys: search words holding a search word's run, and its known words; or one attribute term. */
  keys: string[];
  /** At most this many candidates (a listing holding two keys counts twice); Infinity past what was counted. */
  candidates: number;
  /** About this many candidates, however many: what the condition read first is chosen by. */
  estimate: number;
  /** LIKE pattern of a search word's run among the listings' other words (search_other_words), when any holds it. */
  otherPattern?: string;
}

/**
 * Attribute terms longer than this are not posted (a key must fit an index entry). The posting
 * trigger of migration 0019 holds the same number as a literal: a landed migration never changes,
 * and reading it back from the database would cost every price-ordered search a statement, so a
 * test compares the two instead.
 */
export const LONGEST_POSTED_TERM = 200;

/** Whether an attribute term is posted: short enough, in bytes as the trigger measures it, for an index entry. */
export function isPostedTerm(term: string): boolean {
  return Buffer.byteLength(term) <= LONGEST_POSTED_TERM;
}

/** Trigrams need three letters: a shorter run cannot be looked up among the words by index. */
const SHORTEST_RUN = 3;

/**
 * For each search word: its longest run of letters and digits (split as search words are, so any
 * listing text holding the typed word holds a word holding this run), and the posted words holding
 * the run or standing for the typed word, with their postings. One statement of index lookups.
 */
async function postedWordsHolding(executor: Executor, words: PostedWord[]) {
  if (words.length === 0) return [];
  const asked = JSON.stringify(words.map((word) => ({ typed: word.typed, known: word.known })));
  const rows = await queryRows<{ run: string; words: string[]; postings: number; held: number }>(
    executor,
    sql`
    select run.r as run, counted.words, counted.postings, counted.held
    from jsonb_to_recordset(${asked}::jsonb) as asked(typed text, known text[])
    cross join lateral (
      select r from regexp_split_to_table(lower(asked.typed), '[[:space:][:punct:]]+') as r
      where r <> '' order by char_length(r) desc, r limit 1
    ) as run
    cross join lateral (
      select coalesce(array_agg(held.term), '{}') as words, coalesce(sum(held.listings), 0)::int as postings, count(*)::int as held
      from (
        select ${searchTerms.term} as term, ${searchTerms.listings} as listings from ${searchTerms}
        where ${searchTerms.kind} = 'word' and (${searchTerms.term} like '%' || run.r || '%' or ${searchTerms.term} = any (asked.known))
        limit ${MOST_POSTED_WORDS + 1}
      ) as held
    ) as counted
    where char_length(run.r) >= ${SHORTEST_RUN}`,
  );
  return rows.filter((row) => row.held <= MOST_POSTED_WORDS);
}

/** How many available listings the kept attribute values give an attribute term in every category, as a subquery. */
export function keptTermListings(term: string): SQL<number> {
  // An attribute name never holds `=`, so the first one ends it.
  const split = term.indexOf('=');
  return sql<number>`(select coalesce(sum(${listingAttributeValues.listings}), 0)::int from ${listingAttributeValues}
    where lower(${listingAttributeValues.field}) = ${term.slice(0, split)} and lower(${listingAttributeValues.value}) = ${term.slice(split + 1)})`;
}

/** How many available listings hold each of `words` in all, by search_terms' kept counts, as a subquery. */
export function keptWordListings(words: string[]): SQL<number> {
  return sql<number>`(select coalesce(sum(${searchTerms.listings}), 0)::int from ${searchTerms}
    where ${searchTerms.kind} = 'word' and ${searchTerms.term} = any (${sql.param(words)}::text[]))`;
}

/**
 * Counts, each its own subquery with its value as a parameter, so each is planned for it (a rare
 * run through the trigram index, a common one by reading rows until the limit): the listings
 * holding each pattern among their other words, and for each term its postings (up to a bound)
 * and the available listings the kept attribute values give it in every category; and the
 * available listings holding each set of whole words.
 */
async function countsOf(executor: Executor, patterns: string[], terms: string[], wholeWords: string[][]) {
  const others = patterns.map(
    (pattern) => sql`(select count(*)::int from (select 1 from ${searchOtherWords} where ${searchOtherWords.words} like ${pattern} limit ${MOST_OTHER_LISTINGS + 1}) as other)`,
  );
  const postings = terms.map(
    (term) => sql`(select count(*)::int from (select 1 from ${searchPostings} where ${searchPostings.key} = ${term} limit ${COUNTED_TERM_POSTINGS + 1}) as posted)`,
  );
  const kept = terms.map(keptTermListings);
  // Each available listing holding a word is counted once among search_terms' words (migration 0017).
  const holding = wholeWords.map(keptWordListings);
  if (patterns.length + terms.length + wholeWords.length === 0) return { others: [], postings: [], kept: [], holding: [] };
  const rows = await queryRows<{ counts: number[] }>(executor, sql`select array[${sql.join([...others, ...postings, ...kept, ...holding], sql`, `)}] as counts`);
  const counts = rows[0]!.counts;
  return {
    others: counts.slice(0, patterns.length),
    postings: counts.slice(patterns.length, patterns.length + terms.length),
    kept: counts.slice(patterns.length + terms.length, patterns.length + 2 * terms.length),
    holding: counts.slice(patterns.length + 2 * terms.length),
  };
}

/**
 * The conditions of a search that the postings can give in price order, each with how many
 * candidates it has: a word matched only whole has exactly the postings of its known words. Left
 * out: another word whose run is too short, held by too many posted words, or found in too many
 * descriptions; a term too long to be posted.
 */
export async function postedConditions(executor: Executor, search: PostedSearch): Promise<PostedCondition[]> {
  if (search.words.length === 0 && search.terms.length === 0) return [];
  const wholeWords = search.words.filter((word) => word.wholeOnly);
  const held = await postedWordsHolding(executor, search.words.filter((word) => !word.wholeOnly));
  // A run is split at punctuation, so it holds no `%`, `_` or `\` to escape.
  const patterns = held.map((row) => `%${row.run}%`);
  const terms = search.terms.filter(isPostedTerm);
  const counted = await countsOf(executor, patterns, terms, wholeWords.map((word) => word.known));
  const words = held.flatMap((row, index): PostedCondition[] => {
    const otherListings = counted.others[index]!;
    if (otherListings > MOST_OTHER_LISTINGS) return [];
    const candidates = row.postings + otherListings;
    return [{ keys: row.words, candidates, estimate: candidates, otherPattern: otherListings > 0 ? patterns[index] : undefined }];
  });
  const attributes = terms.map((term, index): PostedCondition => {
    const postings = counted.postings[index]!;
    return {
      keys: [term],
      candidates: postings > COUNTED_TERM_POSTINGS ? Number.POSITIVE_INFINITY : postings,
      estimate: Math.max(postings, counted.kept[index]!),
    };
  });
  const whole = wholeWords.map((word, index): PostedCondition => {
    const holding = counted.holding[index]!;
    return { keys: word.known, candidates: holding, estimate: holding };
  });
  return [...whole, ...words, ...attributes];
}

/** A search word as one run of letters and digits: any text holding it holds it within one of its split words. */
const SINGLE_RUN = /^[\p{L}\p{N}]+$/u;

/**
 * For each typed search word (lower-cased, matched as a substring too), whether its matches are
 * exactly the postings of the known words it stands for, and the posted words holding it as typed.
 * A listing text holding such a word holds it within one word of its split text, which is either
 * one of the listing's search words (each kept in search_terms, so among `holding`) or one of its
 * other words (search_other_words). So when no other word holds it, and every search word holding
 * it is among the known words it stands for (which the listings match whole anyway), the postings
 * of those known words hold every match and nothing else. Undefined for a word of punctuation or
 * several runs (`s23-ultra`), which is never read so. One statement of index lookups, each
 * planned for its own pattern.
 */
export async function wordsHeldInPostings(executor: Executor, typed: string[]): Promise<Map<string, { holding: string[]; elsewhere: boolean }>> {
  const runs = typed.filter((word) => SINGLE_RUN.test(word));
  if (runs.length === 0) return new Map();
  // A single run holds no `%`, `_` or `\` to escape.
  const lookups = runs.map(
    (word) => sql`select ${word}::text as word,
      array(select ${searchTerms.term} from ${searchTerms} where ${searchTerms.kind} = 'word' and ${searchTerms.term} like ${`%${word}%`} limit ${MOST_POSTED_WORDS + 1}) as holding,
      exists (select 1 from ${searchOtherWords} where ${searchOtherWords.words} like ${`%${word}%`}) as elsewhere`,
  );
  const rows = await queryRows<{ word: string; holding: string[]; elsewhere: boolean }>(executor, sql.join(lookups, sql` union all `));
  return new Map(rows.map((row) => [row.word, { holding: row.holding, elsewhere: row.elsewhere }]));
}

/** Postings in price order (newest first among equal prices), as their columns are named in a select of them. */
function postingsInPriceOrder(direction: 'asc' | 'desc'): SQL {
  return direction === 'asc' ? sql`price asc, "createdAt" desc, "listingId" desc` : sql`price desc, "createdAt" desc, "listingId" desc`;
}

/**
 * The ids of a page of the listings holding one posted attribute term, in price order (newest
 * first among equal prices), as a subquery: the term's postings alone are its matches, so the page
 * is read from their index, and only its rows from the listings.
 */
export function postedTermPageIds(term: string, direction: 'asc' | 'desc', offset: number, limit: number): SQL {
  const order = postingsInPriceOrder(direction);
  return sql`(select ${searchPostings.listingId} from ${searchPostings} where ${searchPostings.key} = ${term}
    order by ${order} limit ${limit} offset ${offset})`;
}

/** What narrows every posted condition: a price range, as the storefront's `priceMin` and `priceMax` give it, and a category. */
export interface PostedScope {
  priceMin?: number;
  priceMax?: number;
  /** The category's id (a subquery), whose available listings are intersected with the postings. */
  categoryId?: SQL<string | null>;
}

/** Postings newest first, as the newest-first index of search_postings holds them (and listings are listed). */
const postingsNewestFirst = sql`"createdAt" desc, "listingId" desc`;

/**
 * One condition's postings newest first, each listing once: one key's, or several keys' merged.
 * With `first`, only the first that many of each key: enough for a page of the condition alone,
 * and a limit that keeps a price range read in newest order rather than every posting in it sorted.
 */
function conditionNewestFirst(keys: string[], range: PostedScope, first?: number): SQL {
  const inRange = and(
    range.priceMin === undefined ? undefined : gte(searchPostings.price, range.priceMin),
    range.priceMax === undefined ? undefined : lte(searchPostings.price, range.priceMax),
  );
  const branches = [...new Set(keys)].map(
    (key) => sql`(select ${searchPostings.createdAt} as "createdAt", ${searchPostings.listingId} as "listingId" from ${searchPostings}
      where ${and(eq(searchPostings.key, key), inRange)} order by ${postingsNewestFirst}${first === undefined ? sql`` : sql` limit ${first}`})`,
  );
  if (branches.length === 1) return branches[0]!;
  return sql`(select distinct "createdAt", "listingId" from (${sql.join(branches, sql` union all `)}) as merged order by ${postingsNewestFirst})`;
}

/**
 * The ids of a page of the listings meeting every condition, newest first, as a subquery, when
 * each condition's matches are exactly the postings of its keys (a word's known words, or one
 * attribute term): each condition's postings are read newest first from the index alone, the
 * conditions intersected by merging them in that order, so a deep page skips its offset without
 * reading a listing.
 */
export function postedNewestPageIds(conditions: string[][], range: PostedScope, offset: number, limit: number): SQL {
  // A condition alone needs no more of each key than the page reaches; intersected ones may need all of them.
  const alone = conditions.length === 1 && range.categoryId === undefined;
  const matches = postedMatches(conditions, range, alone ? offset + limit : undefined);
  return sql`(select "listingId" from ${matches} order by ${postingsNewestFirst} limit ${limit} offset ${offset})`;
}

/** The available listings of a category newest first, as their newest-first index holds them (read from it alone). */
function categoryNewestFirst(categoryId: SQL<string | null>): SQL {
  return sql`(select ${listings.createdAt} as "createdAt", ${listings.id} as "listingId" from ${listings}
    where ${and(eq(listings.categoryId, categoryId), eq(listings.status, 'AVAILABLE'))} order by ${postingsNewestFirst})`;
}

/**
 * The listings meeting every condition, as a FROM item of `createdAt` and `listingId`: each
 * condition's postings newest first (and the category's listings, when one is given), merged.
 */
function postedMatches(conditions: string[][], range: PostedScope, first?: number): SQL {
  const [firstCondition, ...rest] = [
    ...conditions.map((keys) => conditionNewestFirst(keys, range, first)),
    ...(range.categoryId === undefined ? [] : [categoryNewestFirst(range.categoryId)]),
  ];
  return rest.reduce<SQL>(
    (from, condition, index) => sql`${from} join ${condition} as ${sql.identifier(`condition_${index + 1}`)} using ("createdAt", "listingId")`,
    sql`${firstCondition!} as condition_0`,
  );
}

/** How many listings meet every condition, counted from their postings (from the index alone) up to EXACT_TOTAL_LIMIT. */
export async function postedTotal(executor: Executor, conditions: string[][], range: PostedScope): Promise<MatchedTotal> {
  const [counted] = await queryRows<{ total: number }>(
    executor,
    sql`select count(*)::int as total from (select from ${postedMatches(conditions, range)} limit ${EXACT_TOTAL_LIMIT}) as matching`,
  );
  return cappedTotal(counted!.total);
}

/**
 * Candidates in price order (newest first among equal prices): the first `window` of the
 * condition's postings and of the listings holding it among their other words, each listing once.
 */
function candidatesInPriceOrder(condition: PostedCondition, direction: 'asc' | 'desc', window: number): SQL {
  const order = postingsInPriceOrder(direction);
  const branches = condition.keys.map(
    (key) =>
      sql`(select ${searchPostings.listingId} as "listingId", ${searchPostings.price} as price, ${searchPostings.createdAt} as "createdAt"
        from ${searchPostings} where ${searchPostings.key} = ${key} order by ${order} limit ${window})`,
  );
  if (condition.otherPattern !== undefined) {
    branches.push(sql`(select ${listings.id} as "listingId", ${listings.price} as price, ${listings.createdAt} as "createdAt" from ${listings}
      where ${listings.status} = 'AVAILABLE' and ${listings.id} in (select ${searchOtherWords.listingId} from ${searchOtherWords} where ${searchOtherWords.words} like ${condition.otherPattern}))`);
  }
  return sql`(select "listingId", price, "createdAt" from (${sql.join(branches, sql` union `)}) as candidate order by ${order} limit ${window})`;
}

/**
 * The page among the first `window` candidates of the condition in price order, matching rows in
 * order. The candidates' listings carry the postings' price and creation time, so the plan knows
 * they come in the page's order and stops at the page. `order` must be the price order of `direction`.
 */
export function walkPostings<Row>(
  executor: Executor,
  search: NewestFirstSearch,
  selectRows: RowSelection<Row>,
  condition: PostedCondition,
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
      .from(sql`${candidatesInPriceOrder(condition, direction, window)} as posted`)
      .innerJoin(listings, eq(listings.id, sql`posted."listingId"`)),
  );
  return selectRows(executor.with(candidates))
    .where(and(search.indexed, search.checked))
    .orderBy(...order)
    .limit(search.limit)
    .offset(search.offset);
}
