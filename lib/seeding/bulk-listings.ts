import { inArray } from 'drizzle-orm/sql/expressions/conditions';
import { sql } from 'drizzle-orm/sql/sql';
import { getTableColumns } from 'drizzle-orm/utils';
import { DEFAULT_CATEGORIES } from '../categories/default-categories.js';
import { seedDefaultCategories } from '../categories/seed.js';
import type { Database, Executor } from '../db/client.js';
import { categories, listings, users } from '../db/schema.js';
import { randomSource } from './random-source.js';
import { generateListing, listingCreatedAt, pickCategory, type NewListing } from './realistic-catalogue.js';

/** A category listings are generated in, with the rules their attributes follow. */
export type GeneratedCategory = Awaited<ReturnType<typeof ensureDefaultCategories>>[number];

/** Makes sure the default categories exist and returns them. */
export async function ensureDefaultCategories(db: Executor) {
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

/** Rows per insert. */
const BATCH_SIZE = 1500;

/** The listings' columns by the names of a generated listing's fields. */
const columnsByField = getTableColumns(listings);

/**
 * Inserts a batch of listings in one statement whose rows travel as one JSON array, read with the
 * listings' own column types by json_populate_recordset(). A statement of 17 parameters a row cost
 * the seeder about three times as long to build as generating the rows.
 */
async function insertBatch(db: Executor, batch: readonly NewListing[]): Promise<void> {
  const names = Object.keys(batch[0]!).map((field) => sql.identifier(columnsByField[field as keyof typeof columnsByField].name));
  const columns = sql.join(names, sql`, `);
  await db.execute(sql`insert into ${listings} (${columns}) select ${columns} from json_populate_recordset(null::${listings}, ${JSON.stringify(batch)}::json)`);
}

/**
 * Inserts `total` listings of the realistic catalogue in multi-row batches, created over the last
 * two years (more of them recent), and reports progress after each batch. Each of `executors` (a
 * transaction each, on connections of their own) inserts a batch at a time, the next one generated
 * while the others insert: on two cores the database's work and the generating overlap instead of
 * alternating. The batches are the same, and the same listings, however many executors share them.
 * The categories (ensureDefaultCategories()) and agents exist before: a transaction of the load
 * would not see one another made. A failed insert stops every executor at its next batch, and is
 * thrown once they all have stopped.
 */
export async function insertGeneratedListings(
  executors: readonly Executor[],
  options: { total: number; seed?: number; categories: GeneratedCategory[]; agentIds: string[]; onProgress?: (done: number) => void },
): Promise<void> {
  const random = randomSource(options.seed ?? 42);
  const pool = options.categories;
  const now = Date.now();
  let generated = 0;
  let inserted = 0;
  let failed = false;
  const nextBatch = (): NewListing[] | undefined => {
    const size = Math.min(BATCH_SIZE, options.total - generated);
    if (size <= 0 || failed) return undefined;
    generated += size;
    return Array.from({ length: size }, () => generateListing(random, pickCategory(random, pool), options.agentIds, listingCreatedAt(random, now)));
  };
  const inserting = executors.map(async (executor) => {
    try {
      for (let batch = nextBatch(); batch !== undefined; batch = nextBatch()) {
        await insertBatch(executor, batch);
        inserted += batch.length;
        options.onProgress?.(inserted);
      }
    } catch (error) {
      failed = true;
      throw error;
    }
  });
  const failure = (await Promise.allSettled(inserting)).find((outcome) => outcome.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
}
