import type { ListingAttributes, ListingStatus, SchemaRule, listings } from '../db/schema.js';
import { catalogueBrands, isCatalogueCategory, type CatalogueCategory, type CatalogueModel } from './catalogue-brands.js';
import { writeDescription, writeTitle, type ListingFacts } from './listing-text.js';
import { normal, pick, weighted, type Random } from './random-source.js';

/**
 * A shop's catalogue as a classified-ads shop of devices in Addis Ababa holds it, one listing at a
 * time, deterministic for a given random source: 300 and more brands with their models and model
 * codes, attributes valid for the category's rules, prices in birr (log-normal per category, mostly
 * not round), descriptions of 10 to 80 words of real English with shop phrases, misspellings,
 * capitals and emoji, about one listing in twenty in Amharic, every status, and creation times
 * over two years, more of them recent.
 */

/** A listing as the catalogue makes it: always in a category. */
export type NewListing = typeof listings.$inferInsert & { categoryId: string };

export interface CatalogueCategoryRow {
  id: string;
  name: string;
  schemaRules: SchemaRule[];
}

/** How the catalogue's listings spread over the default categories. */
const CATEGORY_SHARES: Record<CatalogueCategory, number> = { PHONES: 0.42, LAPTOPS: 0.22, EARBUDS: 0.14, SMARTWATCHES: 0.12, TABLETS_LAPTOPS: 0.1 };
/** A category the catalogue does not know (an administrator's own) gets a small share. */
const OTHER_CATEGORY_SHARE = 0.03;

/** Picks the category of the next listing: phones most, then laptops, earbuds, watches and tablets. */
export function pickCategory<T extends { name: string }>(random: Random, pool: readonly T[]): T {
  let total = 0;
  for (const category of pool) total += isCatalogueCategory(category.name) ? CATEGORY_SHARES[category.name] : OTHER_CATEGORY_SHARE;
  let roll = random() * total;
  for (const category of pool) {
    roll -= isCatalogueCategory(category.name) ? CATEGORY_SHARES[category.name] : OTHER_CATEGORY_SHARE;
    if (roll < 0) return category;
  }
  return pool[pool.length - 1]!;
}

/** The catalogue's listings were created over this span. */
export const CATALOGUE_SPAN_MS = 2 * 365 * 24 * 3600 * 1000;

/** A creation time within the two years before `now`, the shop growing: a listing is three times likelier today than two years ago. */
export function listingCreatedAt(random: Random, now: number): Date {
  // Density of an age a (as a share of the span): 1.5 - a, normalised; inverted in closed form.
  const u = random();
  const age = 1.5 - Math.sqrt(2.25 - 2 * u);
  return new Date(now - Math.floor(age * CATALOGUE_SPAN_MS));
}

/** A typical asking price, in birr, of each category's devices, and how widely prices spread around it. */
const PRICE_MEDIAN: Record<CatalogueCategory, number> = { PHONES: 24_000, TABLETS_LAPTOPS: 30_000, LAPTOPS: 45_000, EARBUDS: 3_500, SMARTWATCHES: 6_500 };
const PRICE_SPREAD = 0.35;
const LOWEST_PRICE = 150;
const CONDITION_PRICE: Record<string, number> = { 'Brand New': 1, 'Used - Like New': 0.85, 'Used - Good': 0.72, 'Used - Fair': 0.55 };

/**
 * A price around the model's typical one: most with birr and cents like 18,437.50, some round to
 * the hundred or five hundred, some just under a thousand (24,999).
 */
function priceFor(random: Random, category: CatalogueCategory, model: CatalogueModel, condition: unknown): number {
  const typical = PRICE_MEDIAN[category] * model.priceFactor * (CONDITION_PRICE[String(condition)] ?? 0.8);
  const price = Math.max(LOWEST_PRICE, typical * Math.exp(PRICE_SPREAD * normal(random)));
  const style = random();
  if (style < 0.2) return Math.max(LOWEST_PRICE, Math.round(price / (price >= 5000 ? 500 : 100)) * (price >= 5000 ? 500 : 100));
  if (style < 0.27) return Math.max(LOWEST_PRICE, Math.round(price / 1000) * 1000 - 1);
  const cents = random();
  const fraction = cents < 0.3 ? 0.5 : cents < 0.45 ? 0 : cents < 0.55 ? 0.99 : Math.floor(random() * 100) / 100;
  return Math.floor(price) + fraction;
}

const STATUSES = weighted<ListingStatus>([
  ['AVAILABLE', 0.7],
  ['PENDING', 0.07],
  ['SOLD', 0.15],
  ['ARCHIVED', 0.08],
]);

const CONDITIONS = weighted<string>([
  ['Brand New', 0.35],
  ['Used - Like New', 0.25],
  ['Used - Good', 0.28],
  ['Used - Fair', 0.12],
]);

const COLORS = weighted<string>([
  ['Black', 10], ['White', 6], ['Silver', 5], ['Blue', 5], ['Space Gray', 4], ['Midnight', 4], ['Gray', 3], ['Gold', 3], ['Green', 2.5],
  ['Graphite', 2], ['Starlight', 2], ['Purple', 2], ['Red', 1.5], ['Pink', 1.5], ['Sierra Blue', 1], ['Phantom Black', 1.5],
  ['Titanium Natural', 1], ['Black Titanium', 1], ['Mint', 0.8], ['Lavender', 0.8], ['Cream', 0.8], ['Deep Purple', 0.8], ['Navy', 0.6],
  ['Rose Gold', 0.8], ['Awesome Graphite', 0.6], ['Orange', 0.4], ['Yellow', 0.4], ['Coral', 0.3],
]);

/** How often sellers pick each option of the default categories' select rules; others are even. */
const OPTION_WEIGHTS: Record<string, Record<string, number>> = {
  'PHONES.storage': { '64GB': 0.12, '128GB': 0.42, '256GB': 0.32, '512GB': 0.1, '1TB': 0.04 },
  'PHONES.ram': { '4GB': 0.2, '6GB': 0.2, '8GB': 0.35, '12GB': 0.2, '16GB': 0.05 },
  'PHONES.carrier': { Unlocked: 0.8, 'AT&T': 0.05, Verizon: 0.04, 'T-Mobile': 0.04, Vodafone: 0.03, Other: 0.04 },
  'LAPTOPS.storage': { '256GB': 0.35, '512GB': 0.45, '1TB': 0.17, '2TB': 0.03 },
  'LAPTOPS.ram': { '8GB': 0.4, '16GB': 0.45, '32GB': 0.12, '64GB': 0.03 },
  'LAPTOPS.screenSize': { '13"': 0.12, '14"': 0.35, '15"': 0.08, '15.6"': 0.35, '16"': 0.07, '17"': 0.03 },
  'TABLETS_LAPTOPS.storage': { '64GB': 0.3, '128GB': 0.35, '256GB': 0.2, '512GB': 0.1, '1TB': 0.04, '2TB': 0.01 },
  'TABLETS_LAPTOPS.ram': { '4GB': 0.3, '6GB': 0.2, '8GB': 0.3, '12GB': 0.1, '16GB': 0.08, '32GB': 0.02 },
  'SMARTWATCHES.connectivity': { GPS: 0.7, 'GPS + Cellular': 0.3 },
};

function pickOption(random: Random, category: string, rule: SchemaRule, options: readonly string[]): string {
  const weights = OPTION_WEIGHTS[`${category}.${rule.field}`];
  if (!weights) return pick(random, options);
  let total = 0;
  for (const option of options) total += weights[option] ?? 0.02;
  let roll = random() * total;
  for (const option of options) {
    roll -= weights[option] ?? 0.02;
    if (roll < 0) return option;
  }
  return options[options.length - 1]!;
}

/** The processor option of a laptop's rules for a processor model (`i7-1165G7` is Intel Core i7). */
function processorOption(processor: string | undefined): string {
  if (!processor) return 'Other';
  const intel = /^i(\d)-/.exec(processor);
  if (intel) return `Intel Core i${intel[1]}`;
  const ultra = /^Core Ultra (\d)/.exec(processor);
  if (ultra) return `Intel Core Ultra ${ultra[1]}`;
  const ryzen = /^Ryzen (\d)/.exec(processor);
  if (ryzen) return `AMD Ryzen ${ryzen[1]}`;
  if (/^M\d$/.test(processor)) return `Apple ${processor}`;
  if (processor.startsWith('Snapdragon X')) return 'Qualcomm Snapdragon X';
  return 'Other';
}

/** The graphics a laptop reports: its discrete card by full name, or the integrated one of its processor. */
function graphicsName(processor: string | undefined, graphics: string | undefined): string {
  if (graphics) return /^(RTX|GTX) \d/.test(graphics) ? `NVIDIA GeForce ${graphics}` : `NVIDIA ${graphics}`;
  if (!processor) return 'Integrated';
  if (/^M\d$/.test(processor)) return `Apple ${processor} GPU`;
  if (/^Ryzen/.test(processor)) return 'AMD Radeon Graphics';
  if (/^i\d-(1[1-9]|\d{4}G\d)/.test(processor)) return 'Intel Iris Xe Graphics';
  return 'Intel UHD Graphics 620';
}

function operatingSystem(model: CatalogueModel, options: readonly string[], random: Random): string {
  const wanted = model.brand === 'Apple' ? 'macOS' : /Chromebook/.test(model.name) ? 'ChromeOS' : random() < 0.92 ? 'Windows 11' : 'Linux';
  return options.includes(wanted) ? wanted : pick(random, options);
}

/** Whether earbuds cancel noise, by what their name promises. */
function cancelsNoise(model: CatalogueModel, random: Random): boolean {
  return /Pro|NC|ANC|XM|QuietComfort|Max|Momentum|Elite|Liberty|Space/.test(model.name) ? random() < 0.95 : random() < 0.15;
}

interface AttributeContext {
  category: CatalogueCategory;
  model: CatalogueModel;
  processor: string | undefined;
  graphics: string | undefined;
}

/** The value of one attribute rule, fitting the device where the catalogue knows it. */
function attributeValue(random: Random, context: AttributeContext, rule: SchemaRule, chosen: ListingAttributes): string | number | boolean {
  const { category, model } = context;
  const options = rule.options ?? [];
  switch (rule.field) {
    case 'brand':
      return model.brand;
    case 'model':
      return model.name;
    case 'condition':
      if (rule.type === 'select') {
        const condition = CONDITIONS.pick(random);
        return options.includes(condition) ? condition : pick(random, options);
      }
      break;
    case 'color':
      if (rule.type === 'string') return COLORS.pick(random);
      break;
    case 'batteryHealth':
      if (rule.type === 'string') return chosen.condition === 'Brand New' ? '100%' : `${78 + Math.floor(random() * 23)}%`;
      break;
    case 'hasWarranty':
      if (rule.type === 'boolean') return random() < (chosen.condition === 'Brand New' ? 0.8 : 0.2);
      break;
    case 'noiseCancelling':
      if (rule.type === 'boolean') return cancelsNoise(model, random);
      break;
    case 'gpu':
      if (rule.type === 'string') return graphicsName(context.processor, context.graphics);
      break;
    case 'processor':
      if (rule.type === 'select') {
        const wanted = category === 'LAPTOPS' ? processorOption(context.processor) : model.fixed[0];
        return wanted !== undefined && options.includes(wanted) ? wanted : pickOption(random, category, rule, options);
      }
      break;
    case 'os':
      if (rule.type === 'select') return operatingSystem(model, options, random);
      break;
    case 'caseSize':
      if (rule.type === 'select') {
        const sizes = model.fixed.filter((size) => options.includes(size));
        return sizes.length > 0 ? pick(random, sizes) : pickOption(random, category, rule, options);
      }
      break;
  }
  if (rule.type === 'select' && options.length > 0) return pickOption(random, category, rule, options);
  if (rule.type === 'boolean') return random() < 0.5;
  if (rule.type === 'number') return Math.round(random() * 100);
  return `${model.brand} ${rule.field}`;
}

/** Attributes valid for the category's rules: every required field, most optional ones. */
function attributesFor(random: Random, rules: readonly SchemaRule[], context: AttributeContext): ListingAttributes {
  const attributes: ListingAttributes = {};
  for (const rule of rules) {
    if (!rule.required && random() < 0.2) continue;
    attributes[rule.field] = attributeValue(random, context, rule, attributes);
  }
  return attributes;
}

const PLACES = weighted<readonly [city: string, neighborhoods: readonly string[]]>([
  [['Addis Ababa', ['Bole', 'Bole', 'Bole', 'Merkato', 'Merkato', 'Piassa', 'Megenagna', 'Megenagna', 'Kazanchis', 'CMC', 'Sarbet', 'Gerji', 'Ayat', 'Lebu', 'Mexico', '4 Kilo', '22 Mazoria', 'Summit', 'Jemo', 'Saris', 'Kolfe']], 0.82],
  [['Adama', ['Posta Bet', 'Franko']], 0.04],
  [['Hawassa', ['Piassa', 'Tabor']], 0.03],
  [['Bahir Dar', ['Kebele 14', 'Piassa']], 0.03],
  [['Mekelle', ['Kedamay Weyane', 'Hawelti']], 0.02],
  [['Dire Dawa', ['Kezira', 'Sabian']], 0.02],
  [['Gondar', ['Piassa', 'Arada']], 0.02],
  [['Jimma', ['Merkato', 'Hermata']], 0.02],
]);

const IMAGE_COUNTS = weighted<number>([[0, 8], [1, 30], [2, 25], [3, 20], [4, 10], [5, 4], [6, 2], [8, 1]]);
const SEED_IMAGES = 200;
const COMMON_COMMISSIONS = [2.5, 3, 5, 5, 7.5, 10];

function imagesFor(random: Random): string[] {
  const count = IMAGE_COUNTS.pick(random);
  const images: string[] = [];
  for (let index = 0; index < count; index += 1) images.push(`/uploads/seed-${Math.floor(random() * SEED_IMAGES)}.webp`);
  return images;
}

function stockFor(random: Random, status: ListingStatus): number {
  if (status === 'SOLD' || status === 'ARCHIVED') return 0;
  const roll = random();
  if (roll < 0.65) return 1;
  if (roll < 0.9) return 2 + Math.floor(random() * 4);
  if (roll < 0.98) return 6 + Math.floor(random() * 15);
  return 21 + Math.floor(random() * 80);
}

function commissionFor(random: Random): number | null {
  if (random() >= 0.4) return null;
  return random() < 0.7 ? pick(random, COMMON_COMMISSIONS) : Math.round((0.5 + random() * 14.5) * 100) / 100;
}

/** The agent of a listing: a few agents post most of the listings, as in a real shop. */
function agentFor(random: Random, agentIds: readonly string[]): string | null {
  if (agentIds.length === 0) return null;
  return agentIds[Math.floor(agentIds.length * random() ** 1.8)]!;
}

/** Listings in Amharic, title and description. */
const AMHARIC_SHARE = 0.05;

/** One listing of `category` for the shop, created at `createdAt`. */
export function generateListing(random: Random, category: CatalogueCategoryRow, agentIds: readonly string[], createdAt: Date): NewListing {
  const catalogueCategory: CatalogueCategory = isCatalogueCategory(category.name) ? category.name : 'PHONES';
  const offer = catalogueBrands()[catalogueCategory].picker.pick(random);
  const model = pick(random, offer.models);
  const processor = model.processors.length > 0 ? pick(random, model.processors) : undefined;
  const graphics = model.graphics.length > 0 ? pick(random, model.graphics) : undefined;
  const attributes = attributesFor(random, category.schemaRules, { category: catalogueCategory, model, processor, graphics });
  const price = priceFor(random, catalogueCategory, model, attributes.condition);
  const facts: ListingFacts = {
    category: catalogueCategory,
    model,
    code: model.codes.length > 0 ? pick(random, model.codes) : undefined,
    processor,
    graphics,
    attributes,
    price,
  };
  const amharic = random() < AMHARIC_SHARE;
  const status = STATUSES.pick(random);
  const [city, neighborhoods] = PLACES.pick(random);
  const viewsCount = Math.min(200_000, Math.floor(Math.exp(3.7 + 1.2 * normal(random))));
  return {
    title: writeTitle(facts, random, amharic),
    description: writeDescription(facts, random, amharic),
    price,
    status,
    city,
    neighborhood: pick(random, neighborhoods),
    images: imagesFor(random),
    attributes,
    categoryId: category.id,
    agentId: agentFor(random, agentIds),
    stockQuantity: stockFor(random, status),
    commissionPercent: commissionFor(random),
    viewsCount,
    inquiryClicks: Math.floor(viewsCount * (0.02 + random() * 0.08)),
    createdAt,
    updatedAt: createdAt,
  };
}
