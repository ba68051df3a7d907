import type { ListingAttributes } from '../db/schema.js';
import { AMHARIC_BRANDS, AMHARIC_PRODUCT, amharicWord } from './amharic-vocabulary.js';
import type { CatalogueCategory, CatalogueModel } from './catalogue-brands.js';
import { englishVocabulary } from './english-vocabulary.js';
import { misspell } from './misspellings.js';
import { pick, weighted, type Random, type WeightedPicker } from './random-source.js';

/** What a listing's title and description speak of, settled before they are written. */
export interface ListingFacts {
  category: CatalogueCategory;
  model: CatalogueModel;
  /** A model or part number, when the seller copies one from the box. */
  code: string | undefined;
  /** Laptops: the processor model (`i7-1165G7`); graphics (`RTX 3060`) when it has a discrete one. */
  processor: string | undefined;
  graphics: string | undefined;
  attributes: ListingAttributes;
  price: number;
}

const TITLE_PREFIXES = ['Brand new', 'Slightly used', 'Original', 'Clean', 'Used', 'Urgent sale', 'New', 'Like new', 'Neat'];
const TITLE_SUFFIXES = ['sealed', 'clean', 'dual sim', 'like new', 'for sale', 'with box', 'urgent sale', 'best price', 'negotiable', 'full accessories'];
const EMOJI = ['🔥', '✅', '📱', '💻', '⌚', '🎧', '💯', '⭐', '🚚', '📞', '👌', '⚡', '🆕', '💥', '🎁', '😍', '👍', '📦'];

/** Names a shop writes without the brand: nobody writes "Apple iPhone". */
const NAMES_WITHOUT_BRAND = /^(iPhone|iPad|MacBook|AirPods|Galaxy|Redmi|Poco|Pixel|ThinkPad|Surface)/;

/** Shop phrases, by how often they turn up, for every category and for each one. */
type Phrase = readonly [text: string, weight: number];
const COMMON_PHRASES: readonly Phrase[] = [
  ['brand new sealed', 6], ['original charger', 6], ['fast charging', 5], ['excellent condition', 5], ['good condition', 4],
  ['like new condition', 3], ['no scratches', 4], ['with box and original charger', 3], ['price is negotiable', 3],
  ['slightly negotiable', 2], ['call or telegram', 3], ['free delivery in Addis', 2], ['delivery available', 3], ['100% original', 2],
  ['cash on delivery', 1.5], ['serious buyers only', 1.5], ['no exchange', 1], ['exchange accepted', 1], ['warranty included', 1.5],
  ['1 year warranty', 1.5], ['6 months warranty', 1], ['imported from Dubai', 1.5], ['from USA', 1], ['used for 3 months', 1],
  ['minor scratches on the back', 1], ['all functions working perfectly', 1.5], ['never repaired', 1], ['never opened', 1],
  ['screen protector and case included', 1], ['URGENT SALE', 0.8], ['BRAND NEW', 0.8], ['CALL NOW', 0.6], ['best price in town', 1],
  ['visit our shop at Bole', 1], ['we also buy used devices', 0.7], ['payment by telebirr or bank transfer', 0.8], ['condition', 2],
  ['perfect condition', 2], ['fair condition', 1], ['clean and neat', 1],
];
const CATEGORY_PHRASES: Record<CatalogueCategory, readonly Phrase[]> = {
  PHONES: [
    ['dual sim', 3], ['face id working', 2], ['true tone working', 1], ['unlocked for all networks', 2], ['esim supported', 1],
    ['5G supported', 1], ['camera is perfect', 1.5], ['screen never replaced', 1.5], ['original screen', 1.5], ['charging port working', 1],
    ['clean imei', 1.5], ['fingerprint working', 1],
  ],
  TABLETS_LAPTOPS: [
    ['with pencil', 1.5], ['with keyboard cover', 1.5], ['wifi only', 2], ['cellular version', 1], ['perfect for kids', 1],
    ['great for reading and movies', 1], ['original charger included', 1.5],
  ],
  LAPTOPS: [
    ['SSD storage', 2], ['backlit keyboard', 2], ['touch screen', 1.5], ['long battery life', 2], ['good for gaming', 1.5],
    ['good for students and office work', 2], ['Windows 11 Pro activated', 1.5], ['MS Office installed', 1.5], ['charger included', 2],
    ['fingerprint reader', 1], ['no dead pixels', 1], ['keyboard working perfectly', 1], ['upgradable RAM', 1],
  ],
  EARBUDS: [
    ['active noise cancelling', 2], ['charging case included', 2], ['crystal clear sound', 1.5], ['deep bass', 1.5], ['long battery', 1],
    ['touch controls', 1], ['waterproof IPX4', 1], ['both earbuds working', 1.5], ['original from the box', 1],
  ],
  SMARTWATCHES: [
    ['heart rate monitor', 2], ['GPS tracking', 1.5], ['sleep tracking', 1.5], ['water resistant', 1.5], ['extra strap included', 1.5],
    ['always on display', 1], ['blood oxygen sensor', 1], ['sport band', 1], ['call function', 1],
  ],
};

interface CountedPhrase {
  text: string;
  words: number;
}

const phrasePickers = Object.fromEntries(
  (Object.keys(CATEGORY_PHRASES) as CatalogueCategory[]).map((category) => [
    category,
    weighted<CountedPhrase>([...COMMON_PHRASES, ...CATEGORY_PHRASES[category]].map(([text, weight]) => [{ text, words: text.split(' ').length }, weight])),
  ]),
) as Record<CatalogueCategory, WeightedPicker<CountedPhrase>>;

/** Reused for every description, so writing one allocates its words only once, in the final join. */
const parts: string[] = [];

function shownName(facts: ListingFacts, random: Random): string {
  const { brand, name } = facts.model;
  return NAMES_WITHOUT_BRAND.test(name) && random() < 0.7 ? name : `${brand} ${name}`;
}

/** The specifications a seller puts in a title, by category. */
function titleSpecs(facts: ListingFacts, random: Random): void {
  const { attributes, category } = facts;
  const storage = typeof attributes.storage === 'string' ? attributes.storage : undefined;
  const ram = typeof attributes.ram === 'string' ? attributes.ram : undefined;
  if (category === 'LAPTOPS') {
    if (facts.graphics && random() < 0.7) parts.push(facts.graphics);
    if (facts.processor && random() < 0.6) parts.push(facts.processor);
    if (ram && storage && random() < 0.5) parts.push(ram, storage, 'SSD');
    else if (ram && random() < 0.4) parts.push(`${ram} RAM`);
  } else if (category === 'PHONES' || category === 'TABLETS_LAPTOPS') {
    if (ram && storage && random() < 0.2) parts.push(`${ram.replace('GB', '')}/${storage}`);
    else if (storage && random() < 0.7) parts.push(storage);
    if (typeof attributes.color === 'string' && random() < 0.25) parts.push(attributes.color);
  } else if (category === 'SMARTWATCHES') {
    if (typeof attributes.caseSize === 'string' && random() < 0.5) parts.push(attributes.caseSize);
    if (typeof attributes.connectivity === 'string' && random() < 0.3) parts.push(attributes.connectivity);
  }
}

function englishTitle(facts: ListingFacts, random: Random): string {
  parts.length = 0;
  if (random() < 0.12) parts.push(pick(random, TITLE_PREFIXES));
  parts.push(shownName(facts, random));
  if (facts.code && random() < 0.25) parts.push(random() < 0.5 ? `(${facts.code})` : facts.code);
  titleSpecs(facts, random);
  if (random() < 0.12) parts.push(pick(random, TITLE_SUFFIXES));
  if (random() < 0.04) {
    // One word of the title misspelt, as a seller typing on a phone does.
    const at = Math.floor(random() * parts.length);
    parts[at] = parts[at]!.split(' ').map((word, index) => (index === 0 && /^[A-Za-z]{4,}$/.test(word) ? misspell(random, word).toLowerCase() : word)).join(' ');
  }
  return parts.join(' ');
}

function amharicTitle(facts: ListingFacts, random: Random): string {
  parts.length = 0;
  if (random() < 0.7) parts.push(pick(random, ['አዲስ', 'ንጹህ', 'ያገለገለ', 'ኦሪጅናል', 'በጣም ንጹህ']));
  const brand = AMHARIC_BRANDS[facts.model.brand];
  parts.push(brand && random() < 0.5 ? `${brand} ${facts.model.name}` : shownName(facts, random));
  if (typeof facts.attributes.storage === 'string' && random() < 0.5) parts.push(facts.attributes.storage);
  parts.push(AMHARIC_PRODUCT[facts.category]!);
  if (random() < 0.6) parts.push(pick(random, ['ይሸጣል', 'ለሽያጭ', 'በቅናሽ', 'ይገኛል']));
  return parts.join(' ');
}

/** A title as shops write them: mostly plain, some in capitals, some with emoji, some in Amharic. */
export function writeTitle(facts: ListingFacts, random: Random, amharic: boolean): string {
  const title = amharic ? amharicTitle(facts, random) : englishTitle(facts, random);
  const style = random();
  if (style < 0.05) return title.toUpperCase();
  if (style < 0.08) return `${pick(random, EMOJI)} ${title}`;
  if (style < 0.11) return `${title} ${pick(random, EMOJI)}${pick(random, EMOJI)}`;
  return title;
}

/** A short fact about the device, as a description states it. */
function specPhrase(facts: ListingFacts, random: Random): string | undefined {
  const { attributes } = facts;
  switch (Math.floor(random() * 6)) {
    case 0:
      return typeof attributes.batteryHealth === 'string' ? `battery health ${attributes.batteryHealth}` : undefined;
    case 1:
      return typeof attributes.ram === 'string' ? `${attributes.ram} RAM` : undefined;
    case 2:
      return typeof attributes.storage === 'string' ? `${attributes.storage} storage` : undefined;
    case 3:
      return facts.processor ? `${facts.processor} processor` : facts.graphics ? `${facts.graphics} graphics` : undefined;
    case 4:
      return facts.code ? `model ${facts.code}` : undefined;
    default:
      return typeof attributes.color === 'string' ? `color ${attributes.color}` : undefined;
  }
}

/** Descriptions run from 10 to 80 words, most of them 20 to 50. */
function descriptionLength(random: Random): number {
  return 10 + Math.floor(70 * random() ** 1.4);
}

/**
 * The words of an English description: an opening naming the device, then shop phrases, facts and
 * runs of ordinary English words (the Zipf vocabulary), some misspelt, until the length is reached.
 */
function englishDescription(facts: ListingFacts, random: Random): string {
  const vocabulary = englishVocabulary();
  const target = descriptionLength(random);
  parts.length = 0;
  const opening = random() < 0.5 ? shownName(facts, random) : `Selling my ${facts.model.name}`;
  parts.push(opening);
  let words = opening.split(' ').length;
  const phrases = phrasePickers[facts.category];
  while (words < target) {
    const kind = random();
    if (kind < 0.3) {
      const phrase = phrases.pick(random);
      if (words + phrase.words <= target) {
        parts.push(random() < 0.3 ? `${phrase.text}.` : phrase.text);
        words += phrase.words;
        continue;
      }
    } else if (kind < 0.4) {
      const spec = specPhrase(facts, random);
      if (spec && words + 2 <= target) {
        parts.push(spec);
        words += spec.split(' ').length;
        continue;
      }
    }
    const run = Math.min(target - words, 3 + Math.floor(random() * 10));
    for (let index = 0; index < run; index += 1) {
      const word = vocabulary.pick(random);
      parts.push(random() < 0.012 ? misspell(random, word) : word);
    }
    if (random() < 0.6) parts[parts.length - 1] += '.';
    words += run;
  }
  if (random() < 0.12) parts.splice(1 + Math.floor(random() * (parts.length - 1)), 0, pick(random, EMOJI));
  const description = parts.join(' ');
  return random() < 0.03 ? description.toUpperCase() : description;
}

function amharicDescription(facts: ListingFacts, random: Random): string {
  const target = descriptionLength(random);
  parts.length = 0;
  const product = AMHARIC_PRODUCT[facts.category]!;
  parts.push(facts.model.name, product);
  let words = facts.model.name.split(' ').length + product.split(' ').length;
  while (words < target) {
    const kind = random();
    if (kind < 0.05 && words + 3 <= target) {
      parts.push('ዋጋ', Math.round(facts.price).toLocaleString('en-US'), 'ብር');
      words += 3;
    } else if (kind < 0.1 && typeof facts.attributes.storage === 'string') {
      parts.push(facts.attributes.storage);
      words += 1;
    } else {
      parts.push(amharicWord(random));
      words += 1;
    }
  }
  if (random() < 0.15) parts.push(pick(random, EMOJI));
  return parts.join(' ');
}

export function writeDescription(facts: ListingFacts, random: Random, amharic: boolean): string {
  return amharic ? amharicDescription(facts, random) : englishDescription(facts, random);
}
