/** The most words of a query that are looked up; the rest of a longer query is not searched word by word. */
export const MAX_QUERY_WORDS = 8;

/**
 * Known words read per word (a query's, or a completion's prefix), nearest first by trigram
 * distance: a word a typo or two away shares most of its trigrams, so it is among them, and the
 * lookup stays an index walk however many words the catalogue holds.
 */
export const NEAREST_WORDS = 40;

/**
 * The words of a search, as typed and lower-cased, split at spaces only: `e_8` or `s23-ultra` is
 * still one word, found as a substring as before (a stored word never holds punctuation).
 */
export function queryWords(text: string): string[] {
  const words = text.toLowerCase().split(/\s+/u).filter(Boolean);
  return [...new Set(words)].slice(0, MAX_QUERY_WORDS);
}

/** Words shorter than this are matched only whole: a shorter run has no trigram to look it up by. */
const SHORTEST_SUBSTRING_WORD = 3;

/**
 * Whether a search word matches only listings holding it as a whole word of their title, brand or
 * model (`5g`, `m2`, `lg`, `%`): a word shorter than three characters, or without a letter, would
 * match as a substring in nearly every listing, or through no index at all.
 */
export function matchesWholeWordsOnly(word: string): boolean {
  return [...word].length < SHORTEST_SUBSTRING_WORD || !/\p{L}/u.test(word);
}

/** A word without case or accents: `Ïphone` and `iphone` fold to the same word. */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** How many typos a word of this length may hold and still be recognised: none under 4 letters, 1 up to 7, then 2. */
export function allowedTypos(word: string): number {
  const length = [...word].length;
  if (length < 4) return 0;
  return length < 8 ? 1 : 2;
}

/**
 * Edits (a letter inserted, left out, replaced, or two neighbours swapped) that turn `a` into `b`:
 * the optimal string alignment distance, so `iphnoe` is one edit from `iphone`.
 */
export function editDistance(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  const rows = Array.from({ length: left.length + 1 }, (_, i) => Array.from({ length: right.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= left.length; i++) {
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[left.length]![right.length]!;
}
