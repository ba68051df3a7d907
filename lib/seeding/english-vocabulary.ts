import { createRequire } from 'node:module';
import { randomSource, WeightedPicker, type Random } from './random-source.js';

/**
 * The words a shop's descriptions are written in, ranked by how often they occur: the words every
 * listing uses first (shop English, most frequent first), then every other word of a 275,000-word
 * English list in a fixed shuffled order. Picks follow a Zipf-Mandelbrot law over the ranks, so a
 * few words are in most descriptions and the long tail still reaches hundreds of thousands of
 * distinct words at a few hundred thousand listings, as real text does.
 */
const SHOP_ENGLISH = `the and with for in is a to it of very good new condition original phone used clean price no all box
charger battery working perfect screen call fast available on has one like from my this only sealed brand warranty
delivery negotiable scratches excellent health comes camera storage memory sim dual unlocked free cash months year just
back face id touch cover case protector glass accessories included full set quality at or be are not more best sale
urgent selling shop location bole contact me please serious buyers still under minor small scratch dent issue problems
any smooth performance gaming student office work light weight thin keyboard backlit fingerprint sensor speaker sound
noise cancelling waterproof strap band tracker fitness heart rate gps bluetooth wifi network imported dubai usa receipt
invoice ssd ram processor generation display touchscreen resolution amoled retina inch cable adapter earphones pouch
charging wireless usb port hours life long tested guaranteed exchange accepted payment bank transfer telebirr deal offer
discount today last now`.split(/\s+/);

// Loaded as a CommonJS module: an ES import of the JSON would copy its 275,000 entries into a namespace first.
const require = createRequire(import.meta.url);

/** The law's exponent and offset: a little flatter than 1 at the head, as shop text is. */
const ZIPF_EXPONENT = 1.15;
const ZIPF_OFFSET = 2.7;
/** The rest of the list is shuffled once with this seed, so a word's rank is the same for every catalogue seed. */
const VOCABULARY_SEED = 0x5eed;

export interface EnglishVocabulary {
  /** Every word, most frequent first. */
  readonly ranked: readonly string[];
  /** How many of the first ranks are the shop words; the list's other words follow. */
  readonly shopWords: number;
  /** The chance that one description word is the word of this rank. */
  share(rank: number): number;
  /** A word drawn by the Zipf law over the ranks. */
  pick(random: Random): string;
}

function shuffled(words: string[], random: Random): string[] {
  for (let index = words.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [words[index], words[other]] = [words[other]!, words[index]!];
  }
  return words;
}

function buildVocabulary(): EnglishVocabulary {
  const head = [...new Set(SHOP_ENGLISH)];
  const inHead = new Set(head);
  const tail = shuffled(
    (require('an-array-of-english-words') as readonly string[]).filter((word) => !inHead.has(word)),
    randomSource(VOCABULARY_SEED),
  );
  const ranked = [...head, ...tail];
  const weights = new Float64Array(ranked.length);
  let total = 0;
  for (let rank = 0; rank < ranked.length; rank += 1) {
    weights[rank] = 1 / (rank + 1 + ZIPF_OFFSET) ** ZIPF_EXPONENT;
    total += weights[rank]!;
  }
  const picker = new WeightedPicker(ranked, weights);
  return {
    ranked,
    shopWords: head.length,
    share: (rank) => (weights[rank] ?? 0) / total,
    pick: (random) => picker.pick(random),
  };
}

let vocabulary: EnglishVocabulary | undefined;

/** The vocabulary, built on first use (about a tenth of a second). */
export function englishVocabulary(): EnglishVocabulary {
  vocabulary ??= buildVocabulary();
  return vocabulary;
}
