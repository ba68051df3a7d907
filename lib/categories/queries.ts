import { and, eq, inArray, isNotNull, or } from 'drizzle-orm/sql/expressions/conditions';
import { asc } from 'drizzle-orm/sql/expressions/select';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import { getTableColumns } from 'drizzle-orm/utils';
import type { Executor } from '../db/client.js';
import { categories, listings, listingTotals } from '../db/schema.js';
import { notFoundError } from '../http/api-error.js';
import { countListings } from '../db/kept-totals.js';
import { listingUnedited } from '../db/unedited.js';
import type { CategoryDefinition } from './default-categories.js';

export type CategoryRow = typeof categories.$inferSelect;
export type CategoryWithCount = CategoryRow & { listingCount: number };
export type CategoryChanges = Partial<Pick<CategoryRow, 'name' | 'displayName' | 'icon' | 'schemaRules'>>;

export async function findCategoryById(executor: Executor, id: string): Promise<CategoryRow | undefined> {
  const [row] = await executor.select().from(categories).where(eq(categories.id, id)).limit(1);
  return row;
}

export async function getCategoryOrThrow(executor: Executor, id: string): Promise<CategoryRow> {
  const row = await findCategoryById(executor, id);
  if (!row) throw notFoundError('Category', id);
  return row;
}

/** Every category, by display name. */
export function listCategories(executor: Executor): Promise<CategoryRow[]> {
  return executor.select().from(categories).orderBy(asc(categories.displayName), asc(categories.name));
}

/**
 * The category whose code or display name is `value`, ignoring case (the storefront's `category`
 * filter sends either). A code match wins over another category's display name.
 */
export async function findCategoryByCodeOrDisplayName(executor: Executor, value: string): Promise<CategoryRow | undefined> {
  const wanted = value.trim().toLowerCase();
  if (!wanted) return undefined;
  const nameMatches = sql`lower(${categories.name}) = ${wanted}`;
  const [row] = await executor
    .select()
    .from(categories)
    .where(or(nameMatches, sql`lower(${categories.displayName}) = ${wanted}`))
    .orderBy(sql`${nameMatches} desc`, asc(categories.name))
    .limit(1);
  return row;
}

/** A category's listings of every status, summed from the kept totals (a few rows per category). */
const keptListingCount = sql<number>`(select coalesce(sum(${listingTotals.listings}), 0)::int from ${listingTotals} where ${listingTotals.categoryId} = ${categories.id})`;

/** Categories with their listing counts, ordered by display name. */
function selectWithCounts(executor: Executor, where?: SQL) {
  return executor
    .select({ ...getTableColumns(categories), listingCount: keptListingCount })
    .from(categories)
    .where(where)
    .orderBy(asc(categories.displayName), asc(categories.name));
}

export function listCategoriesWithCounts(executor: Executor): Promise<CategoryWithCount[]> {
  return selectWithCounts(executor);
}

export function listCategoriesWithCountsByName(executor: Executor, names: string[]): Promise<CategoryWithCount[]> {
  return selectWithCounts(executor, inArray(categories.name, names));
}

export async function findCategoryWithCount(executor: Executor, id: string): Promise<CategoryWithCount | undefined> {
  const [row] = await selectWithCounts(executor, eq(categories.id, id));
  return row;
}

export async function insertCategory(executor: Executor, values: Required<CategoryChanges>): Promise<CategoryRow> {
  const [row] = await executor.insert(categories).values(values).returning();
  return row!;
}

export async function updateCategoryRow(executor: Executor, id: string, changes: CategoryChanges): Promise<CategoryRow | undefined> {
  const [row] = await executor.update(categories).set(changes).where(eq(categories.id, id)).returning();
  return row;
}

/**
 * Locks the category row against changes and new references: a listing insert or re-point takes a
 * key-share lock on it, so once this returns, the listing count read next in the transaction stays true.
 */
export async function lockCategory(executor: Executor, id: string): Promise<CategoryRow | undefined> {
  const [row] = await executor.select().from(categories).where(eq(categories.id, id)).for('update').limit(1);
  return row;
}

/** The category's listings of every status, from the kept totals. */
export function countListingsInCategory(executor: Executor, id: string): Promise<number> {
  return countListings(executor, { categoryId: id });
}

export async function deleteCategoryRow(executor: Executor, id: string): Promise<void> {
  await executor.delete(categories).where(eq(categories.id, id));
}

/** Inserts the definitions whose names do not exist yet, in one statement; returns the names it created. */
export async function insertMissingCategories(executor: Executor, definitions: readonly CategoryDefinition[]): Promise<string[]> {
  if (definitions.length === 0) return [];
  const rows = await executor
    .insert(categories)
    .values(definitions.map(({ name, displayName, icon, schemaRules }) => ({ name, displayName, icon, schemaRules })))
    .onConflictDoNothing({ target: categories.name })
    .returning({ name: categories.name });
  return rows.map((row) => row.name);
}

/**
 * Takes a category that is being deleted from the listings in the trash that use it, keeping its
 * display name on them (`removedCategory`), and answers how many there were. Each is locked until
 * the transaction ends: a restore of one waits, then finds its category gone and answers so.
 */
export async function releaseTrashedListingsFromCategory(executor: Executor, category: { id: string; displayName: string }): Promise<number> {
  const released = await executor
    .update(listings)
    .set({ categoryId: null, removedCategory: category.displayName, ...listingUnedited })
    .where(and(isNotNull(listings.deletedAt), eq(listings.categoryId, category.id)))
    .returning({ id: listings.id });
  return released.length;
}
