import { inArray } from 'drizzle-orm/sql/expressions/conditions';
import { sql } from 'drizzle-orm/sql/sql';
import { DEFAULT_CATEGORIES } from '../categories/default-categories.js';
import { seedDefaultCategories } from '../categories/seed.js';
import type { Database } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';
import { categories, listings, users, type ListingAttributes, type ListingStatus, type SchemaRule } from '../db/schema.js';

/** A small deterministic generator, so a seed of the same size always makes the same store. */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MODELS: Record<string, Array<[brand: string, models: string[]]>> = {
  PHONES: [
    ['Apple', ['iPhone 13', 'iPhone 14', 'iPhone 15', 'iPhone 15 Pro', 'iPhone 16 Pro Max']],
    ['Samsung', ['Galaxy S23', 'Galaxy S24 Ultra', 'Galaxy A55', 'Galaxy Z Flip 6']],
    ['Google', ['Pixel 8', 'Pixel 8 Pro', 'Pixel 9']],
    ['Xiaomi', ['Redmi Note 13', 'Xiaomi 14']],
  ],
  TABLETS_LAPTOPS: [
    ['Apple', ['iPad Air', 'iPad Pro 11', 'iPad mini']],
    ['Samsung', ['Galaxy Tab S9', 'Galaxy Tab A9']],
    ['Microsoft', ['Surface Pro 9', 'Surface Go 4']],
  ],
  LAPTOPS: [
    ['Apple', ['MacBook Air 13', 'MacBook Pro 14', 'MacBook Pro 16']],
    ['Dell', ['XPS 13', 'XPS 15', 'Inspiron 15']],
    ['Lenovo', ['ThinkPad X1 Carbon', 'IdeaPad 5', 'Legion 5']],
    ['HP', ['Spectre x360', 'EliteBook 840']],
  ],
  EARBUDS: [
    ['Apple', ['AirPods Pro 2', 'AirPods 4']],
    ['Sony', ['WF-1000XM5', 'WF-C700N']],
    ['Samsung', ['Galaxy Buds 3 Pro']],
  ],
  SMARTWATCHES: [
    ['Apple', ['Watch Series 9', 'Watch Ultra 2', 'Watch SE']],
    ['Samsung', ['Galaxy Watch 7', 'Galaxy Watch Ultra']],
    ['Garmin', ['Fenix 7', 'Forerunner 265']],
  ],
};

const PRICE_RANGE: Record<string, [number, number]> = {
  PHONES: [120, 1600],
  TABLETS_LAPTOPS: [150, 1400],
  LAPTOPS: [300, 3500],
  EARBUDS: [30, 350],
  SMARTWATCHES: [80, 900],
};

const COLORS = ['Black', 'White', 'Silver', 'Blue', 'Graphite', 'Gold', 'Green'];
const CITIES: Array<[string, string[]]> = [
  ['Addis Ababa', ['Bole', 'Piassa', 'Kazanchis', 'CMC']],
  ['Nairobi', ['Westlands', 'Kilimani']],
  ['Lagos', ['Ikeja', 'Lekki']],
];
const STATUSES: Array<[ListingStatus, number]> = [
  ['AVAILABLE', 0.7],
  ['PENDING', 0.1],
  ['SOLD', 0.12],
  ['ARCHIVED', 0.08],
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function pickStatus(random: () => number): ListingStatus {
  let roll = random();
  for (const [status, share] of STATUSES) {
    roll -= share;
    if (roll < 0) return status;
  }
  return 'AVAILABLE';
}

/** Attributes valid for the category's rules: every required field, most optional ones. */
function attributesFor(random: () => number, rules: SchemaRule[], brand: string, model: string): ListingAttributes {
  const attributes: ListingAttributes = { brand, model };
  for (const rule of rules) {
    if (rule.field in attributes || (!rule.required && random() < 0.25)) continue;
    if (rule.type === 'select') attributes[rule.field] = pick(random, rule.options ?? []);
    else if (rule.type === 'boolean') attributes[rule.field] = random() < 0.5;
    else if (rule.type === 'number') attributes[rule.field] = Math.round(random() * 100);
    else if (rule.field === 'color') attributes[rule.field] = pick(random, COLORS);
    else if (rule.field === 'batteryHealth') attributes[rule.field] = `${70 + Math.floor(random() * 31)}%`;
    else attributes[rule.field] = `${brand} ${rule.field}`;
  }
  return attributes;
}

export type NewListing = typeof listings.$inferInsert;

export function generateListing(
  random: () => number,
  category: { id: string; name: string; schemaRules: SchemaRule[] },
  agentIds: string[],
  createdAt: Date,
): NewListing {
  const [brand, models] = pick(random, MODELS[category.name] ?? [['Generic', ['Device']]]);
  const model = pick(random, models);
  const attributes = attributesFor(random, category.schemaRules, brand, model);
  const [low, high] = PRICE_RANGE[category.name] ?? [50, 1000];
  const [city, neighborhoods] = pick(random, CITIES);
  const status = pickStatus(random);
  const condition = typeof attributes.condition === 'string' ? attributes.condition : 'Used - Good';
  return {
    title: `${brand} ${model}${attributes.storage ? ` ${String(attributes.storage)}` : ''}`,
    description: `${condition} ${brand} ${model}${attributes.color ? ` in ${String(attributes.color)}` : ''}. Tested and ready to use, with charger.`,
    price: Math.round((low + random() * (high - low)) * 100) / 100,
    status,
    city,
    neighborhood: pick(random, neighborhoods),
    images: random() < 0.3 ? [`/uploads/seed-${Math.floor(random() * 50)}.webp`] : [],
    attributes,
    categoryId: category.id,
    agentId: agentIds.length > 0 ? pick(random, agentIds) : null,
    stockQuantity: status === 'ARCHIVED' ? 0 : 1 + Math.floor(random() * 5),
    commissionPercent: random() < 0.4 ? Math.round(random() * 1500) / 100 : null,
    viewsCount: Math.floor(random() * 500),
    inquiryClicks: Math.floor(random() * 40),
    createdAt,
    updatedAt: createdAt,
  };
}

/** Makes sure the default categories exist and returns them. */
export async function ensureDefaultCategories(db: Database) {
  await seedDefaultCategories(db);
  return db
    .select({ id: categories.id, name: categories.name, schemaRules: categories.schemaRules })
    .from(categories)
    .where(inArray(categories.name, DEFAULT_CATEGORIES.map((definition) => definition.name)));
}

/** Makes sure `count` seed agents exist (sharing one password hash) and returns their ids. */
export async function ensureSeedAgents(db: Database, count: number, passwordHash: string): Promise<string[]> {
  const values = Array.from({ length: count }, (_, index) => ({
    email: `seed-agent-${index + 1}@example.com`,
    password: passwordHash,
    name: `Seed Agent ${index + 1}`,
    phone: `+2519${String(10_000_000 + index).padStart(8, '0')}`,
    role: 'AGENT' as const,
  }));
  if (values.length > 0) await db.insert(users).values(values).onConflictDoNothing({ target: users.email });
  const rows = await db.select({ id: users.id }).from(users).where(sql`${users.email} like 'seed-agent-%@example.com'`);
  return rows.map((row) => row.id);
}

/** Rows per insert: 17 columns x 1,500 rows stays under Postgres' 65,535 parameters. */
export const BATCH_SIZE = 1500;

/**
 * Inserts `total` generated listings in multi-row batches, spreading their creation times over
 * the last year, and reports progress after each batch.
 */
export async function insertGeneratedListings(
  db: Database,
  options: { total: number; seed?: number; agentIds: string[]; onProgress?: (done: number) => void },
): Promise<void> {
  const random = randomSource(options.seed ?? 42);
  const pool = await ensureDefaultCategories(db);
  const yearMs = 365 * 24 * 3600 * 1000;
  const now = Date.now();
  for (let done = 0; done < options.total; ) {
    const size = Math.min(BATCH_SIZE, options.total - done);
    const batch = Array.from({ length: size }, () =>
      generateListing(random, pick(random, pool), options.agentIds, new Date(now - Math.floor(random() * yearMs))),
    );
    await db.insert(listings).values(batch);
    done += size;
    options.onProgress?.(done);
  }
}

/** Triggers that keep data derived from each inserted listing, set aside during a bulk load. */
const INSERT_TRIGGERS = [
  'listing_statistics_on_insert_or_delete',
  'listing_search_postings_on_insert_or_delete',
  'listing_price_band_totals_on_insert_or_delete',
];

/**
 * Runs a bulk load with the listings' derived data set aside: the GIN indexes (trigram and
 * attribute), the statistics triggers (migration 0008), the search postings' (0019) and the price
 * bands' (0022).
 * Maintaining them row by row dominates a large load, while building them once afterwards is fast.
 * The index definitions are read from the catalog and replayed exactly; indexes, triggers,
 * statistics and postings are restored also when the load fails.
 */
export async function withDerivedDataDeferred<T>(db: Database, load: () => Promise<T>): Promise<T> {
  const indexes = await queryRows<{ indexname: string; indexdef: string }>(
    db,
    sql`select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = 'listings' and indexdef like '% USING gin %'`,
  );
  for (const index of indexes) await db.execute(sql.raw(`drop index if exists "${index.indexname}"`));
  for (const trigger of INSERT_TRIGGERS) await db.execute(sql.raw(`alter table listings disable trigger ${trigger}`));
  try {
    return await load();
  } finally {
    for (const index of indexes) await db.execute(sql.raw(index.indexdef));
    for (const trigger of INSERT_TRIGGERS) await db.execute(sql.raw(`alter table listings enable trigger ${trigger}`));
    await db.execute(sql`select listing_statistics_rebuild()`);
    await db.execute(sql`select search_postings_rebuild()`);
    await db.execute(sql`select listing_price_band_totals_rebuild()`);
  }
}
