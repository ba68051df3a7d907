import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';
import { categories, listingTotals, searchTerms } from '../db/schema.js';
import { allowedTypos, editDistance, foldWord, matchesWholeWordsOnly, NEAREST_WORDS, queryWords } from './query-words.js';

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
 * What the last, unfinished word of `text` may be the start of: itself as typed, and the known
 * words whose start is a typo or two away from it (allowedTypos()), so `iphno` completes to iphone.
 */
async function completedWords(executor: Executor, typed: string): Promise<string[]> {
  const folded = foldWord(typed);
  if (allowedTypos(folded) === 0) return [typed];
  const rows = await queryRows<{ term: string }>(
    executor,
    sql`select ${searchTerms.term} as term from ${searchTerms} where ${searchTerms.kind} = 'word' order by ${searchTerms.term} <-> ${folded} limit ${NEAREST_WORDS}`,
  );
  const near = rows.map((row) => row.term).filter((term) => prefixDistance(folded, foldWord(term)) <= allowedTypos(folded));
  return [...new Set([typed, ...near])];
}

/** `column` (lower-cased text) has a word starting with one of `starts`. */
function hasWordStarting(column: SQL, starts: string[]): SQL {
  return sql.join(
    starts.flatMap((start) => [sql`${column} like ${`${likeEscaped(start)}%`}`, sql`${column} like ${`% ${likeEscaped(start)}%`}`]),
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

/**
 * Up to SUGGESTIONS titles, brands, models and categories of available listings that complete
 * `text`: its last word starts a word of theirs (typos allowed) and its other words appear in
 * them (see holdsEarlier()). Completions of the text as typed come first, then by how many
 * listings carry them. Titles, brands and models are read from search_terms; categories from the
 * kept totals.
 */
export async function findSuggestions(executor: Executor, text: string): Promise<Suggestion[]> {
  const words = queryWords(text);
  const last = words.at(-1) ?? '';
  if (!startsAWord(last)) return [];
  const earlier = words.slice(0, -1);
  const starts = await completedWords(executor, last);
  const containsEarlier = (column: SQL) => sql.join([sql`true`, ...earlier.map((word) => holdsEarlier(column, word))], sql` and `);
  const asTyped = (column: SQL) => hasWordStarting(column, [last]);
  const rows = await queryRows<{ kind: SuggestionKind; text: string; count: number | string }>(
    executor,
    sql`
    select kind, text, listings as count from (
      select known.kind, known.text, known.listings, ${asTyped(sql`known.term`)} as typed
      from ${searchTerms} as known
      where known.kind in ('title', 'brand', 'model') and (${hasWordStarting(sql`known.term`, starts)}) and ${containsEarlier(sql`known.term`)}
      union all
      select 'category', category."displayName", totals.listings, ${asTyped(sql`lower(category."displayName")`)}
      from ${categories} as category
      join ${listingTotals} as totals on totals."categoryId" = category.id and totals.status = 'AVAILABLE' and totals.listings > 0
      where (${hasWordStarting(sql`lower(category."displayName")`, starts)}) and ${containsEarlier(sql`lower(category."displayName")`)}
    ) as found
    order by typed desc, listings desc, kind, text
    limit ${SUGGESTIONS}`,
  );
  return rows.map((row) => ({ text: row.text, kind: row.kind, count: Number(row.count) }));
}
