import { and, eq } from 'drizzle-orm/sql/expressions/conditions';
import { asc } from 'drizzle-orm/sql/expressions/select';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { Executor } from '../../db/client.js';
import { categories, listings } from '../../db/schema.js';
import { newestFirst } from '../newest-first.js';

/** The categories some matching listing is in, by display name: whose rules make the attribute columns. */
export function categoriesOfMatches(executor: Executor, matching: SQL) {
  const holds = executor.select({ one: sql`1` }).from(listings).where(and(eq(listings.categoryId, categories.id), matching));
  return executor
    .select({ id: categories.id, displayName: categories.displayName, schemaRules: categories.schemaRules })
    .from(categories)
    .where(sql`exists (${holds})`)
    .orderBy(asc(categories.displayName), asc(categories.name));
}

/** Where the previous page ended, newest first. */
export interface PageEnd {
  createdAt: Date;
  id: string;
}

/**
 * One page of the matching listings, newest first, after `after`: keyset pages walk the
 * newest-first indexes and cost the same at any depth. The price comes as the database writes
 * it (`1299.50`), so no rounding stands between the store and the file.
 */
export function exportPage(executor: Executor, matching: SQL, after: PageEnd | undefined, size: number) {
  const pastPrevious = after === undefined ? undefined : sql`(${listings.createdAt}, ${listings.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`;
  return executor
    .select({
      id: listings.id,
      title: listings.title,
      description: listings.description,
      price: sql<string>`${listings.price}::text`,
      stockQuantity: listings.stockQuantity,
      status: listings.status,
      // A listing in the trash whose category was deleted since names the category it had.
      category: sql<string>`coalesce(${categories.displayName}, ${listings.removedCategory})`,
      attributes: listings.attributes,
      images: listings.images,
      createdAt: listings.createdAt,
    })
    .from(listings)
    .leftJoin(categories, eq(categories.id, listings.categoryId))
    .where(and(matching, pastPrevious))
    .orderBy(...newestFirst)
    .limit(size);
}

export type ExportRow = Awaited<ReturnType<typeof exportPage>>[number];
