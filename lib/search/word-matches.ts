import { and, not } from 'drizzle-orm/sql/expressions/conditions';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import { listings } from '../db/schema.js';
import type { Relevance } from '../listings/relevant-first.js';
import { containsPattern, textMatches } from '../listings/text-search.js';
import type { CorrectedWord, TextSearch } from './word-corrections.js';

const knownWords = (words: string[]) => sql`${sql.param(words)}::text[]`;

/** The title's own words, split as the stored search words are. */
const titleWords = sql`listing_search_word_list(${listings.title}, '{}'::jsonb)`;

/** The listing holds one of `words` among the words of its title, brand and model (their GIN index finds it). */
function holdsWord(words: string[]): SQL {
  return sql`${listings.searchWords} && ${knownWords(words)}`;
}

/**
 * One word found: as a substring of title or description (as before), or as a known word of the
 * title, brand or model, typos allowed; a word matched only whole (`5g`, `%`) as that word alone.
 * When every available listing holding the word as a substring holds one of its known words too
 * (`posted`, see wordsHeldInPostings()), those known words alone find the same listings, through
 * one GIN index instead of also reading the text's trigrams.
 */
function wordMatches(word: CorrectedWord): SQL {
  if (word.wholeOnly) return holdsWord(word.exact);
  if (word.posted) return holdsWord(word.posted.keys);
  return sql`(${textMatches(word.typed)} or ${holdsWord([...word.exact, ...word.near])})`;
}

/**
 * A storefront search: every word of the text matches, in any order; a text without words
 * (only punctuation) is the substring match it always was. The text as typed is a substring of
 * the title or description exactly when each of its words is, so that match is kept.
 */
export function searchMatches(search: TextSearch): SQL {
  if (search.words.length === 0) return textMatches(search.text);
  return and(...search.words.map(wordMatches))!;
}

/**
 * How well one word matches a listing, from best to worst:
 * 4 a word of the title, as typed (ignoring case and accents);
 * 3 a word of the brand or model as typed, or a substring of the title;
 * 2 a word of the title, brand or model a few typos away;
 * 1 a substring of the description only.
 */
function wordQuality(word: CorrectedWord): SQL<number> {
  return sql<number>`(case
    when ${titleWords} && ${knownWords(word.exact)} then 4
    when ${listings.searchWords} && ${knownWords(word.exact)} or ${listings.title} ilike ${containsPattern(word.typed)} then 3
    when ${listings.searchWords} && ${knownWords(word.near)} then 2
    else 1 end)`;
}

/**
 * Every word matches as typed in the title, brand or model (quality 3 or more, see wordQuality()).
 * The search words and the title have indexes of their own, so the condition alone finds its
 * listings through them, however many descriptions hold the word.
 */
function matchesAsTyped(search: TextSearch): SQL {
  return and(
    ...search.words.map((word) =>
      word.wholeOnly ? holdsWord(word.exact) : sql`(${holdsWord(word.exact)} or ${listings.title} ilike ${containsPattern(word.typed)})`,
    ),
  )!;
}

/**
 * How relevance ranks a search. Its keys, best first: the worst word's quality, the text
 * whole in the title, then all words' qualities added up. Its tiers: listings matching every word
 * as typed in the title, brand or model (a worst word of 3 or more) come before any match that
 * needs a typo or the description, however many newer ones there are.
 */
export function relevanceOf(search: TextSearch): Relevance {
  const qualities = search.words.map(wordQuality);
  const none = sql<number>`1`;
  const asTyped = search.words.length === 0 ? undefined : matchesAsTyped(search);
  return {
    keys: {
      worstWord: qualities.length === 0 ? none : sql<number>`least(${sql.join(qualities, sql`, `)})`,
      wholeInTitle: sql<boolean>`${listings.title} ilike ${containsPattern(search.text)}`,
      allWords: qualities.length === 0 ? none : sql<number>`(${sql.join(qualities, sql` + `)})`,
    },
    tiers: asTyped === undefined ? [sql`true`] : [asTyped, not(asTyped)],
  };
}
