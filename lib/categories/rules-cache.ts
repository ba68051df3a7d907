import { inArray } from 'drizzle-orm/sql/expressions/conditions';
import type { Executor } from '../db/client.js';
import { categories, type SchemaRule } from '../db/schema.js';

/**
 * Category rules by category, with the version (`updatedAt`) they were read at. Rules change
 * rarely and every change moves `updatedAt`, so a page that names each row's category version
 * gets its rules here instead of reading (and parsing) them again with every row.
 */
const known = new Map<string, { version: number; rules: SchemaRule[] }>();

/** Categories are few; the bound only guards the process against a shop that makes thousands. */
const KNOWN_LIMIT = 1000;

export interface CategoryVersion {
  categoryId: string;
  categoryVersion: Date;
}

/** The rules of every category the rows name, at the version each row names. */
export async function categoryRulesOf(executor: Executor, rows: readonly CategoryVersion[]): Promise<Map<string, SchemaRule[]>> {
  const stale = new Set<string>();
  for (const { categoryId, categoryVersion } of rows) {
    if (known.get(categoryId)?.version !== categoryVersion.getTime()) stale.add(categoryId);
  }
  if (stale.size > 0) {
    const fresh = await executor
      .select({ id: categories.id, rules: categories.schemaRules, version: categories.updatedAt })
      .from(categories)
      .where(inArray(categories.id, [...stale]));
    if (known.size + fresh.length > KNOWN_LIMIT) known.clear();
    for (const { id, rules, version } of fresh) known.set(id, { version: version.getTime(), rules });
  }
  return new Map(rows.map(({ categoryId }) => [categoryId, known.get(categoryId)?.rules ?? []]));
}
