import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';
import { searchTerms } from '../db/schema.js';
import { allowedTypos, editDistance, foldWord, matchesWholeWordsOnly, NEAREST_WORDS, queryWords } from './query-words.js';

/**
 * The most of the shop's words a search word longer than the document's beginning terms is
 * expanded to as their beginning: past it, the beginning itself is searched, which the index reads
 * as one range. (A shorter word, `pro` beginning thousands, is searched by its beginning term.)
 */
export const MOST_BEGUN_WORDS = 256;

/** The most title, brand and model words holding a search word that it is expanded to; the rest are left out. */
export const MOST_TITLE_WORDS = 1_000;

/**
 * A word of descriptions (and attribute values) is a near spelling's candidate only when at least
 * this many available listings hold it (`search_terms.common`, which its partial index
 * `search_terms_common_trgm_idx` holds); words of titles, brands and models always are. Finding the nearest among every word a
 * catalogue's descriptions use (350,000 at a million listings, most held by a few listings)
 * costs a quarter of a second; among these, a few milliseconds.
 */
export const COMMON_WORD_LISTINGS = 100;

/**
 * One word of a storefront search, split and lower-cased as the listings' documents are (by
 * PostgreSQL's `simple` parser), with the words of the shop it stands for.
 */
export interface SearchWord {
  word: string;
  /** Shorter than three characters or without a letter (matchesWholeWordsOnly()): only a whole word of a title, brand or model. */
  wholeOnly: boolean;
  /**
   * The shop's words it begins (itself among them when held, and those equal to it but for
   * accents), or undefined when they are more than MOST_BEGUN_WORDS: then the beginning itself.
   */
  begun: string[] | undefined;
  /**
   * How many available listings hold the words it stands for, by the kept counts: the most any
   * word it begins holds (at least this many listings match it as typed); the most any word it
   * stands for holds, near spellings and title words included (at least this many listings match
   * it); and added up, the words it begins, the title words holding it, its near spellings
   * anywhere, and its near spellings as words of titles, brands and models. What a read's first
   * window is sized by.
   */
  listings: { mostBegun: number; mostHeld: number; begun: number; inTitles: number; near: number; nearInTitles: number };
  /** Words of titles, brands and models holding it (the ones it begins among them), and the shop's words equal to it but for accents. */
  inTitles: string[];
  /** The shop's words a typo or two away (allowedTypos()), none of them begun: words of titles, brands and models, and common words (COMMON_WORD_LISTINGS). */
  near: string[];
  /** The words of titles, brands and models among `near`, none of them in `inTitles`. */
  nearInTitles: string[];
}

/** A storefront search: the text as typed and its words. */
export interface TextSearch {
  text: string;
  words: SearchWord[];
  /** Some word stands for none of the shop's words (or for no word at all: punctuation, emoji): no listing matches. */
  matchesNothing: boolean;
}


/** A word of the shop, with how many available listings hold it. */
type HeldWord = [term: string, listings: number];

/**
 * A near spelling's candidate: a word of the shop, with how many available listings hold it as a
 * word of a title, brand or model (`word`), or anywhere (`text`).
 */
type NearWord = [term: string, listings: number, kind: 'word' | 'text'];

interface ExpandedRow {
  word: string;
  begun: HeldWord[];
  inTitles: HeldWord[];
  nearest: NearWord[];
}

/** Whether `word` stands for some listing's word in any way. */
function standsForAWord(word: SearchWord): boolean {
  return word.wholeOnly ? word.inTitles.includes(word.word) : word.begun === undefined || word.begun.length + word.inTitles.length + word.near.length > 0;
}

/** The words of a part of a search as the documents' parser splits and lower-cases them, as the rows `split(word)`. */
const wordsOfPart = (part: string) => sql`unnest(tsvector_to_array(to_tsvector('simple', ${part}))) as split(word)`;

/**
 * The words of one part of a search (split as the documents are), each with the shop's words
 * (search_terms) it may stand for: the words it begins (one range of the "C"-collated key: every
 * word it begins sorts from it to it followed by the highest character), the title, brand and
 * model words holding it, and its nearest words by trigrams, of which those a typo or two away are
 * kept. None when the part gives no word at all (punctuation, emoji).
 */
function expandedPart(executor: Executor, part: string): Promise<ExpandedRow[]> {
  return queryRows<ExpandedRow>(
    executor,
    sql`
    select split.word,
      coalesce((select json_agg(json_build_array(begun.term, begun.listings)) from (
        select ${searchTerms.term} as term, ${searchTerms.listings} as listings from ${searchTerms}
        where ${searchTerms.kind} = 'text' and ${searchTerms.term} >= split.word and ${searchTerms.term} < split.word || chr(1114111)
        order by ${searchTerms.term} limit ${MOST_BEGUN_WORDS + 1}) as begun), '[]') as "begun",
      coalesce((select json_agg(json_build_array(titled.term, titled.listings)) from (
        select ${searchTerms.term} as term, ${searchTerms.listings} as listings from ${searchTerms}
        where ${searchTerms.kind} = 'word' and ${searchTerms.term} like '%' || replace(replace(replace(split.word, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'
        limit ${MOST_TITLE_WORDS}) as titled), '[]') as "inTitles",
      coalesce((select json_agg(json_build_array(nearest.term, nearest.listings, nearest.kind)) from (
        (select ${searchTerms.term} as term, ${searchTerms.listings} as listings, ${searchTerms.kind} as kind from ${searchTerms}
          where ${searchTerms.kind} = 'word' order by ${searchTerms.term} <-> split.word limit ${NEAREST_WORDS})
        union all
        (select ${searchTerms.term} as term, ${searchTerms.listings} as listings, ${searchTerms.kind} as kind from ${searchTerms}
          where ${searchTerms.kind} = 'text' and ${searchTerms.common}
          order by ${searchTerms.term} <-> split.word limit ${NEAREST_WORDS})) as nearest), '[]') as "nearest"
    from ${wordsOfPart(part)}`,
  );
}

/**
 * The words of a part that matches only whole (matchesWholeWordsOnly(): a part shorter than three
 * characters, or without a letter, gives only such words), each with the title, brand or model
 * word it is, when the shop holds it. The words it begins, holds or nearly spells would never be
 * matched, and are not looked up.
 */
function wholeWordsPart(executor: Executor, part: string): Promise<ExpandedRow[]> {
  return queryRows<ExpandedRow>(
    executor,
    sql`
    select split.word, '[]'::json as "begun",
      coalesce((select json_agg(json_build_array(${searchTerms.term}, ${searchTerms.listings})) from ${searchTerms}
        where ${searchTerms.kind} = 'word' and ${searchTerms.term} = split.word), '[]') as "inTitles",
      '[]'::json as "nearest"
    from ${wordsOfPart(part)}`,
  );
}

/**
 * The words of `text`, each expanded against the shop's words (expandedPart(), or wholeWordsPart()
 * for a part that matches only whole). The parts are looked up at once, each by a statement of its
 * own: a word's nearest spellings are two walks of trigram indexes (about 4 ms at a million
 * listings), which one statement for every part made one after another.
 */
export async function expandSearch(executor: Executor, text: string): Promise<TextSearch> {
  const parts = queryWords(text);
  const expanded = await Promise.all(parts.map((part) => (matchesWholeWordsOnly(part) ? wholeWordsPart : expandedPart)(executor, part)));
  const words = expanded.flat().map(expandedWord);
  return { text, words, matchesNothing: parts.length === 0 || expanded.some((rows) => rows.length === 0) || !words.every(standsForAWord) };
}

const total = (words: Iterable<HeldWord>) => [...words].reduce((sum, [, listings]) => sum + Number(listings), 0);

const most = (words: Iterable<HeldWord>) => [...words].reduce((largest, [, listings]) => Math.max(largest, Number(listings)), 0);

function expandedWord({ word, begun, inTitles, nearest }: ExpandedRow): SearchWord {
  if (matchesWholeWordsOnly(word)) {
    const held = inTitles.filter(([term]) => term === word);
    return {
      word,
      wholeOnly: true,
      begun: [],
      listings: { mostBegun: 0, mostHeld: total(held), begun: 0, inTitles: total(held), near: 0, nearInTitles: 0 },
      inTitles: held.map(([term]) => term),
      near: [],
      nearInTitles: [],
    };
  }
  const folded = foldWord(word);
  const tooMany = begun.length > MOST_BEGUN_WORDS;
  const begunWords = new Map<string, number>(tooMany ? [] : begun);
  const titled = new Map<string, number>(inTitles);
  const near = new Map<string, number>();
  const nearInTitles = new Map<string, number>();
  for (const [term, listings, kind] of nearest) {
    const inTitle = kind === 'word';
    if (inTitle ? titled.has(term) : begunWords.has(term)) continue;
    const distance = editDistance(foldWord(term), folded);
    if (distance === 0) {
      // The word but for accents is matched as typed: a title word is a word of its documents too.
      begunWords.set(term, listings);
      if (inTitle) titled.set(term, listings);
    } else if (distance <= allowedTypos(folded)) (inTitle ? nearInTitles : near).set(term, listings);
  }
  return {
    word,
    wholeOnly: false,
    begun: tooMany ? undefined : [...begunWords.keys()],
    listings: {
      mostBegun: most(begun),
      mostHeld: most([...begun, ...titled, ...near, ...nearInTitles]),
      begun: total(begun),
      inTitles: total(titled),
      // A title word is a word of its listings' documents too: counted once, anywhere.
      near: total(new Map([...nearInTitles, ...near])),
      nearInTitles: total(nearInTitles),
    },
    inTitles: [...titled.keys()],
    near: [...new Set([...near.keys(), ...nearInTitles.keys()])],
    nearInTitles: [...nearInTitles.keys()],
  };
}
