import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';
import { searchTerms } from '../db/schema.js';
import { wordsHeldInPostings } from '../listings/search-postings.js';
import { allowedTypos, editDistance, foldWord, matchesWholeWordsOnly, NEAREST_WORDS, queryWords } from './query-words.js';

/** One word of a storefront search, with the known words it stands for. */
export interface CorrectedWord {
  /** As typed, lower-cased: still found as a substring of the title or description. */
  typed: string;
  /** Known words that are this one but for case and accents (the typed word among them). */
  exact: string[];
  /** Known words a few typos away (allowedTypos()), none of them in `exact`. */
  near: string[];
  /** Found only as a whole word of the title, brand or model (matchesWholeWordsOnly()), never as a substring. */
  wholeOnly: boolean;
  /**
   * When the word's matches are exactly the search postings of some keys (always for a word
   * matched only whole; see wordsHeldInPostings() for the others): those keys, and whether any
   * listing holds the word as typed (its title, brand or model, not a typo of it).
   */
  posted?: { keys: string[]; asTyped: boolean };
}

/** A storefront search: the text as typed and its words. */
export interface TextSearch {
  text: string;
  words: CorrectedWord[];
  /** A word matched only whole is held by no available listing (punctuation alone never is): no listing matches. */
  matchesNothing: boolean;
}

/**
 * The words of `text`, each with the words of available titles, brands and models it may mean. A
 * word matched only whole is not corrected: it stands for itself alone.
 */
export async function correctSearch(executor: Executor, text: string): Promise<TextSearch> {
  const typed = queryWords(text);
  const lookedUp = [...new Set(typed.filter((word) => !matchesWholeWordsOnly(word)).map(foldWord))];
  const wholeOnly = typed.filter(matchesWholeWordsOnly);
  const substringWords = typed.filter((word) => !matchesWholeWordsOnly(word));
  const [rows, held, inPostings] = await Promise.all([
    lookedUp.length === 0
      ? []
      : queryRows<{ word: string; term: string }>(
          executor,
          sql`
          select asked.word, known.term
          from unnest(${sql.param(lookedUp)}::text[]) as asked(word)
          cross join lateral (
            select ${searchTerms.term} as term from ${searchTerms}
            where ${searchTerms.kind} = 'word' order by ${searchTerms.term} <-> asked.word limit ${NEAREST_WORDS}
          ) as known`,
        ),
    wholeOnly.length === 0
      ? []
      : queryRows<{ term: string }>(
          executor,
          sql`select ${searchTerms.term} as term from ${searchTerms} where ${searchTerms.kind} = 'word' and ${searchTerms.term} = any (${sql.param(wholeOnly)}::text[])`,
        ),
    wordsHeldInPostings(executor, substringWords),
  ]);
  const known = new Set(held.map((row) => row.term));
  const words = typed.map((word): CorrectedWord => {
    if (matchesWholeWordsOnly(word)) return { typed: word, exact: [word], near: [], wholeOnly: true, posted: { keys: [word], asTyped: true } };
    const folded = foldWord(word);
    const exact = new Set([word]);
    const exactKnown = new Set<string>();
    const near = new Set<string>();
    for (const { word: asked, term } of rows) {
      if (asked !== folded) continue;
      const distance = editDistance(foldWord(term), folded);
      if (distance === 0) exactKnown.add(term);
      else if (distance <= allowedTypos(folded)) near.add(term);
    }
    for (const term of exactKnown) exact.add(term);
    const known = new Set([...exact, ...near]);
    const holding = inPostings.get(word);
    const posted =
      holding && !holding.elsewhere && holding.holding.every((term) => known.has(term))
        ? { keys: [...known], asTyped: exactKnown.size + holding.holding.length > 0 }
        : undefined;
    return { typed: word, exact: [...exact], near: [...near].filter((term) => !exact.has(term)), wholeOnly: false, posted };
  });
  return { text, words, matchesNothing: wholeOnly.some((word) => !known.has(word)) };
}
