import { inArray } from 'drizzle-orm/sql/expressions/conditions';
import { asc } from 'drizzle-orm/sql/expressions/select';
import { listCategories, type CategoryRow } from '../../categories/queries.js';
import type { Executor } from '../../db/client.js';
import { listings, users } from '../../db/schema.js';
import { listingColumns, type ListingRow } from '../queries.js';

/** What the rows of an import are checked against, read set-wise: a few statements whatever the number of rows. */
export interface ImportContext {
  /** Categories by lower-cased display name (several may share one) and by lower-cased code. */
  categoriesByDisplayName: Map<string, CategoryRow[]>;
  categoriesByCode: Map<string, CategoryRow>;
  categoriesById: Map<string, CategoryRow>;
  /** The listings the file names by id. */
  listings: Map<string, ListingRow>;
  /** Account ids by e-mail, for the e-mails the file names. */
  accountsByEmail: Map<string, string>;
}

/** How a category cell is compared: trimmed, ignoring case. */
export const categoryKey = (name: string) => name.trim().toLowerCase();

/** E-mails are stored lower-cased. */
export const emailKey = (email: string) => email.trim().toLowerCase();

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

async function namedListings(executor: Executor, ids: readonly string[], lock: boolean): Promise<ListingRow[]> {
  if (ids.length === 0) return [];
  const named = executor.select(listingColumns).from(listings).where(inArray(listings.id, [...ids])).orderBy(asc(listings.id));
  return lock ? named.for('update') : named;
}

/**
 * Reads what the rows name. With `lock`, inside the writing transaction, the named listings are
 * locked (in id order, so two imports naming the same listings queue instead of deadlocking) until
 * it ends, so that what the rows are checked against is what they write over.
 */
export async function loadImportContext(executor: Executor, ids: readonly string[], emails: readonly string[], lock: boolean): Promise<ImportContext> {
  const categories = await listCategories(executor);
  const found = await namedListings(executor, ids, lock);
  const accounts = emails.length === 0 ? [] : await executor.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, [...emails]));
  return {
    categoriesByDisplayName: groupBy(categories, (category) => categoryKey(category.displayName)),
    categoriesByCode: new Map(categories.map((category) => [categoryKey(category.name), category])),
    categoriesById: new Map(categories.map((category) => [category.id, category])),
    listings: new Map(found.map((listing) => [listing.id, listing])),
    accountsByEmail: new Map(accounts.map((account) => [account.email, account.id])),
  };
}
