import { AMHARIC_WORDS } from './amharic-vocabulary.js';
import { catalogueBrands } from './catalogue-brands.js';
import { englishVocabulary } from './english-vocabulary.js';
import { COMMON_MISSPELLINGS, misspell } from './misspellings.js';
import { randomSource } from './random-source.js';
import { generateListing, pickCategory } from './realistic-catalogue.js';
import { DEFAULT_CATEGORIES } from '../categories/default-categories.js';

/**
 * What shoppers type into the storefront's search, drawn from the catalogue's own vocabulary so
 * that benchmarks and correctness checks ask the words a real catalogue holds: frequent, middling
 * and rare description words, words only descriptions hold, model codes, Amharic, typos of real
 * words, several words at once, and the beginnings of words still being typed.
 */

export type ShopperQueryKind =
  | 'frequent-word'
  | 'mid-word'
  | 'rare-word'
  | 'description-only-word'
  | 'model-code'
  | 'amharic'
  | 'typo'
  | 'several-words'
  | 'word-beginning';

export interface ShopperQuery {
  kind: ShopperQueryKind;
  q: string;
}

/** Listings sampled from the generator to learn which words its titles and attributes use. */
const SAMPLED_LISTINGS = 3_000;
const SAMPLE_SEED = 0x5a3b1e;

/** A word of ordinary letters, long enough to be matched by its beginning and near spellings. */
const PLAIN_WORD = /^[a-z]{5,12}$/;

interface CatalogueSample {
  /** Every lower-cased word of the sample's titles and attribute values, and of every brand and model name. */
  titleWords: Set<string>;
  /** How many words a listing's description draws from the vocabulary, on average. */
  vocabularyWordsPerListing: number;
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}

function sampleCatalogue(): CatalogueSample {
  const vocabulary = englishVocabulary();
  const shopWords = new Set(vocabulary.ranked.slice(0, vocabulary.shopWords));
  let otherWordsShare = 1;
  for (let rank = 0; rank < vocabulary.shopWords; rank += 1) otherWordsShare -= vocabulary.share(rank);
  const titleWords = new Set<string>();
  for (const { offers } of Object.values(catalogueBrands())) {
    for (const offer of offers) for (const model of offer.models) for (const word of wordsOf(`${offer.brand} ${model.name} ${model.codes.join(' ')}`)) titleWords.add(word);
  }
  const random = randomSource(SAMPLE_SEED);
  const pool = DEFAULT_CATEGORIES.map((category) => ({ id: category.name, name: category.name, schemaRules: category.schemaRules }));
  // Words past the shop words, and in no title, can only have come from the vocabulary.
  let otherWords = 0;
  for (let index = 0; index < SAMPLED_LISTINGS; index += 1) {
    const listing = generateListing(random, pickCategory(random, pool), [], new Date(0));
    for (const word of wordsOf(`${listing.title} ${Object.values(listing.attributes ?? {}).join(' ')}`)) titleWords.add(word);
    for (const word of wordsOf(listing.description ?? '')) if (!shopWords.has(word) && !titleWords.has(word)) otherWords += 1;
  }
  return { titleWords, vocabularyWordsPerListing: otherWords / otherWordsShare / SAMPLED_LISTINGS };
}

/**
 * The vocabulary's most frequent words that a catalogue of `listings` holds in at most
 * `wantedListings` listings each.
 */
function wordsHeldBy(sample: CatalogueSample, listings: number, wantedListings: number, count: number, descriptionOnly: boolean): string[] {
  const vocabulary = englishVocabulary();
  const picked: string[] = [];
  for (let rank = 0; rank < vocabulary.ranked.length && picked.length < count; rank += 1) {
    const expected = listings * sample.vocabularyWordsPerListing * vocabulary.share(rank);
    if (expected > wantedListings) continue;
    const word = vocabulary.ranked[rank]!;
    if (!PLAIN_WORD.test(word) || (descriptionOnly && sample.titleWords.has(word))) continue;
    picked.push(word);
  }
  return picked;
}

/** The least frequent words a catalogue of `listings` still holds a few times over. */
function rareWords(sample: CatalogueSample, listings: number, count: number): string[] {
  const vocabulary = englishVocabulary();
  const picked: string[] = [];
  for (let rank = vocabulary.ranked.length - 1; rank >= 0 && picked.length < count; rank -= 1) {
    if (listings * sample.vocabularyWordsPerListing * vocabulary.share(rank) < 3) continue;
    const word = vocabulary.ranked[rank]!;
    if (PLAIN_WORD.test(word) && !sample.titleWords.has(word)) picked.push(word);
  }
  return picked;
}

/** Model codes every catalogue holds (the big brands' best sellers) and one of a rare brand. */
function modelCodes(): string[] {
  const rare = catalogueBrands().PHONES.offers.find((offer) => offer.brand === 'ÉCLAIR')!.models[0]!.codes[0]!;
  return ['SM-A546E', 'A2403', 'MLPF3ZP/A', 'i7-1165G7', 'SM-S918B', 'OEB-E104D', 'WF-1000XM5', rare];
}

let sample: CatalogueSample | undefined;

/** The shoppers' queries for a catalogue of `listings` listings, the same for every catalogue seed. */
export function shopperQueries(listings: number): ShopperQuery[] {
  sample ??= sampleCatalogue();
  const frequent = ['condition', 'original', 'charger', 'battery', 'screen', 'samsung', 'galaxy', 'iphone'];
  // Held by about one listing in a few hundred, and by a few dozen: middling words.
  const middling = [...wordsHeldBy(sample, listings, listings / 300, 3, false), ...wordsHeldBy(sample, listings, 40, 2, false)];
  const descriptionOnly = wordsHeldBy(sample, listings, listings / 1000, 4, true);
  const rare = rareWords(sample, listings, 4);
  const random = randomSource(SAMPLE_SEED);
  const typos = [
    ...Object.entries(COMMON_MISSPELLINGS)
      .filter(([word]) => ['iphone', 'samsung', 'charger', 'condition'].includes(word))
      .map(([, misspellings]) => misspellings[0]!),
    ...middling.slice(0, 2).map((word) => misspell(random, word)),
  ];
  const queries: Array<[ShopperQueryKind, readonly string[]]> = [
    ['frequent-word', frequent],
    ['mid-word', middling],
    ['rare-word', rare],
    ['description-only-word', descriptionOnly],
    ['model-code', modelCodes()],
    ['amharic', ['አዲስ', 'ስልክ', 'ላፕቶፕ', 'ዋጋ', 'የስልክ', AMHARIC_WORDS[150]!]],
    ['typo', typos],
    [
      'several-words',
      [
        'brand new sealed',
        'original charger fast',
        'EliteBook 840 G5',
        'RTX 3060',
        'galaxy a54 128gb',
        'iphone 13 pro max',
        'macbook air m1',
        `${frequent[0]} ${middling[0]}`,
        `${descriptionOnly[0]} ${rare[0]}`,
        'አዲስ ስልክ',
      ],
    ],
    ['word-beginning', ['sams', 'ipho', 'eliteb', 'thinkp', 'cond', 'char', 'galax', middling[0]!.slice(0, 4)]],
  ];
  return queries.flatMap(([kind, texts]) => texts.map((q) => ({ kind, q })));
}
