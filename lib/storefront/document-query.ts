import { createHash } from 'node:crypto';
import type { SearchWord, TextSearch } from './word-expansion.js';

/**
 * Queries of the listings' search documents (listing_search_document(), whose current text is
 * migration 0037's), as tsquery text: the markers and the digest of long terms follow that function.
 */

/** A term of the document as its `tsquery` lexeme: quoted, so no character of it is syntax. */
function lexeme(term: string, prefix = false): string {
  return `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'${prefix ? ':*' : ''}`;
}

/** A marked term, or past 200 bytes the digest the document holds instead (listing_search_key()). */
function markedTerm(marker: string, term: string): string {
  return Buffer.byteLength(term) <= 200 ? marker + term : `${marker}#${createHash('md5').update(term).digest('hex')}`;
}

const anyOf = (lexemes: string[]) => (lexemes.length === 1 ? lexemes[0]! : `(${lexemes.join(' | ')})`);

/** Any of the document's terms `terms` (at least one), as tsquery text. */
export function anyTermOf(terms: string[]): string {
  return anyOf(terms.map((term) => lexeme(term)));
}

/**
 * How a search word may match, as relevance ranks it, best first:
 * - `title`: a word of the title, brand or model that it is, begins or holds;
 * - `title-near`: besides, a word of the title, brand or model a typo or two away;
 * - `typed`: a word of the title, brand or model it is, begins or holds, or any word it is or begins
 *   (title, attribute values, description);
 * - `near`: any of these, or any word a typo or two away.
 * A word matched only whole matches a whole word of the title, brand or model at every level.
 */
export type WordMatch = 'title' | 'title-near' | 'typed' | 'near';

/**
 * The longest beginning of a word that the document holds as a term of its own, marked `p:`
 * (migration 0032): a word's beginnings of 3 to this many characters, shorter than the word.
 */
const LONGEST_BEGINNING_TERM = 5;

/**
 * The lexemes of the words `word` begins (itself among them), and of the shop's words equal to it
 * but for accents. Up to LONGEST_BEGINNING_TERM characters, that is the word and its beginning
 * term, however many words it begins; past it, the words it begins, or when they are too many
 * (`begun` undefined), the beginning as a prefix of the index's terms.
 */
function begunLexemes(word: SearchWord): string[] {
  if ([...word.word].length <= LONGEST_BEGINNING_TERM) {
    const accented = (word.begun ?? []).filter((term) => !term.startsWith(word.word));
    return [lexeme(word.word), lexeme(`p:${word.word}`), ...accented.map((term) => lexeme(term))];
  }
  return word.begun === undefined ? [lexeme(word.word, true)] : word.begun.map((term) => lexeme(term));
}

/** The lexemes a word matches at `level`; none when it cannot match so. */
function wordLexemes(word: SearchWord, level: WordMatch): string[] {
  const inTitles = word.inTitles.map((term) => lexeme(`t:${term}`));
  if (word.wholeOnly || level === 'title') return inTitles;
  if (level === 'title-near') return [...inTitles, ...word.nearInTitles.map((term) => lexeme(`t:${term}`))];
  const typed = [...begunLexemes(word), ...inTitles];
  return level === 'typed' ? typed : [...typed, ...word.near.map((term) => lexeme(term))];
}

/** Every word of the search matching at `level`, as tsquery text; undefined when some word cannot. */
export function searchQuery(search: TextSearch, level: WordMatch): string | undefined {
  const perWord = search.words.map((word) => wordLexemes(word, level));
  if (perWord.length === 0 || perWord.some((lexemes) => lexemes.length === 0)) return undefined;
  return perWord.map(anyOf).join(' & ');
}

/** Filters the document serves besides words: whole attribute values, amenities, a category. */
export interface DocumentFilters {
  /** `name=value` terms, lower-cased. */
  attributeTerms: string[];
  /** Lower-cased amenities. */
  amenities: string[];
  categoryId?: string;
}

/** The filters as tsquery text; undefined when there are none. */
export function filtersQuery({ attributeTerms, amenities, categoryId }: DocumentFilters): string | undefined {
  const lexemes = [
    ...attributeTerms.map((term) => lexeme(markedTerm('a:', term))),
    ...amenities.map((amenity) => lexeme(markedTerm('m:', amenity))),
    ...(categoryId === undefined ? [] : [lexeme(`c:${categoryId}`)]),
  ];
  return lexemes.length === 0 ? undefined : lexemes.join(' & ');
}

/** Queries that must all hold, as one; undefined when none is given. */
export function allOf(...queries: Array<string | undefined>): string | undefined {
  const given = queries.filter((query): query is string => query !== undefined);
  return given.length === 0 ? undefined : given.map((query) => `(${query})`).join(' & ');
}
