import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';
import { categories, listingTotals, searchTerms } from '../db/schema.js';
import { allowedTypos, editDistance, foldWord, matchesWholeWordsOnly, NEAREST_WORDS, queryWords } from './query-words.js';
import { COMMON_WORD_LISTINGS } from './word-expansion.js';

export type SuggestionKind = 'title' | 'brand' | 'model' | 'category';

export interface Suggestion {
  text: string;
  kind: SuggestionKind;
  count: number;
}

/** At most this many completions in one answer. */
export const SUGGESTIONS = 8;

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** The shortest distance from `prefix` to a start of `word` one letter shorter, as long, or one letter longer. */
function prefixDistance(prefix: string, word: string): number {
  const length = [...prefix].length;
  return Math.min(...[length - 1, length, length + 1].map((cut) => editDistance(prefix, [...word].slice(0, cut).join(''))));
}

/**
 * The known words whose start is a typo or two away from `typed` (allowedTypos()), the last,
 * unfinished word of a text, so `iphno` completes to iphone; `typed` itself is not among them.
 */
async function nearlyTypedWords(executor: Executor, typed: string): Promise<string[]> {
  const folded = foldWord(typed);
  if (allowedTypos(folded) === 0) return [];
  const rows = await queryRows<{ term: string }>(
    executor,
    sql`select ${searchTerms.term} as term from ${searchTerms} where ${searchTerms.kind} = 'word' order by ${searchTerms.term} <-> ${folded} limit ${NEAREST_WORDS}`,
  );
  return rows.map((row) => row.term).filter((term) => term !== typed && prefixDistance(folded, foldWord(term)) <= allowedTypos(folded));
}

/**
 * `column` (lower-cased text) has a word starting with one of `starts`: a space and the start
 * within `' ' || column`, one pattern for a first word and a later one, which the suggestion
 * indexes serve (migration 0036).
 */
function hasWordStarting(column: SQL, starts: string[]): SQL {
  return sql.join(
    starts.map((start) => sql`(' ' || ${column}) like ${`% ${likeEscaped(start)}%`}`),
    sql` or `,
  );
}

/**
 * `column` (lower-cased text) holds `word` whole, split into words as search words are: a check on
 * the rows the last word's index lookup found, never a pattern of its own.
 */
function hasWholeWord(column: SQL, word: string): SQL {
  return sql`${word} = any (regexp_split_to_array(${column}, '[[:space:][:punct:]]+'))`;
}

/** `column` (lower-cased text) holds an earlier word of the text: as a substring, or whole when it is matched only whole (matchesWholeWordsOnly()). */
function holdsEarlier(column: SQL, word: string): SQL {
  return matchesWholeWordsOnly(word) ? hasWholeWord(column, word) : sql`${column} like ${`%${likeEscaped(word)}%`}`;
}

/** A word starts only with a letter or digit: a last word of punctuation alone starts none. */
const startsAWord = (word: string) => /[\p{L}\p{N}]/u.test(word);

/** A condition on a completion's lower-cased text. */
type Completing = (column: SQL) => SQL;

/**
 * Which titles, brands and models completions are read among: those at least COMMON_WORD_LISTINGS
 * available listings carry (`search_terms.common`, which a small index of its own serves), or all.
 * Categories are read among either.
 */
type CompletionRows = 'common' | 'all';

/** Up to `limit` completions meeting `completing` among `among`, those more listings carry first. */
async function completions(executor: Executor, completing: Completing, among: CompletionRows, limit: number): Promise<Suggestion[]> {
  const rows = await queryRows<{ kind: SuggestionKind; text: string; count: number | string }>(
    executor,
    sql`
    select kind, text, listings as count from (
      select known.kind, known.text, known.listings
      from ${searchTerms} as known
      where known.kind in ('title', 'brand', 'model') and ${among === 'common' ? sql`known.common` : sql`true`} and ${completing(sql`known.term`)}
      union all
      select 'category', category."displayName", totals.listings
      from ${categories} as category
      join ${listingTotals} as totals on totals."categoryId" = category.id and totals.status = 'AVAILABLE' and totals.listings > 0
      where ${completing(sql`lower(category."displayName")`)}
    ) as found
    order by listings desc, kind, text
    limit ${limit}`,
  );
  return rows.map((row) => ({ text: row.text, kind: row.kind, count: Number(row.count) }));
}

/**
 * Up to `limit` completions meeting `completing`, those more listings carry first. The common ones
 * are read first: when at least `limit` of them carry COMMON_WORD_LISTINGS listings or more, no
 * other completion can come before those (`gal` starts 44,000 distinct titles at a million
 * listings, every Galaxy, and its most carried are among a few hundred common ones).
 */
async function mostCarried(executor: Executor, completing: Completing, limit: number): Promise<Suggestion[]> {
  const common = await completions(executor, completing, 'common', limit);
  if (common.length === limit && common.at(-1)!.count >= COMMON_WORD_LISTINGS) return common;
  return completions(executor, completing, 'all', limit);
}

/**
 * Up to SUGGESTIONS titles, brands, models and categories of available listings that complete
 * `text`: its last word starts a word of theirs (typos allowed) and its other words appear in
 * them (see holdsEarlier()). Completions of the text as typed come first, then those of a typo
 * away; each by how many listings carry them. Titles, brands and models are read from
 * search_terms; categories from the kept totals.
 */
export async function findSuggestions(executor: Executor, text: string): Promise<Suggestion[]> {
  const words = queryWords(text);
  const last = words.at(-1) ?? '';
  if (!startsAWord(last)) return [];
  const earlier = words.slice(0, -1);
  const containsEarlier = (column: SQL) => sql.join([sql`true`, ...earlier.map((word) => holdsEarlier(column, word))], sql` and `);
  const asTyped: Completing = (column) => sql`(${hasWordStarting(column, [last])}) and ${containsEarlier(column)}`;
  const [typed, near] = await Promise.all([mostCarried(executor, asTyped, SUGGESTIONS), nearlyTypedWords(executor, last)]);
  if (typed.length === SUGGESTIONS || near.length === 0) return typed;
  const nearlyTyped: Completing = (column) =>
    sql`(${hasWordStarting(column, near)}) and not (${hasWordStarting(column, [last])}) and ${containsEarlier(column)}`;
  return [...typed, ...(await mostCarried(executor, nearlyTyped, SUGGESTIONS - typed.length))];
}
