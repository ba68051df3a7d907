import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { categories } from '../db/schema.js';
import { notFoundError } from '../http/api-error.js';

export type CategoryRow = typeof categories.$inferSelect;

export async function findCategoryById(executor: Executor, id: string): Promise<CategoryRow | undefined> {
  const [row] = await executor.select().from(categories).where(eq(categories.id, id)).limit(1);
  return row;
}

export async function getCategoryOrThrow(executor: Executor, id: string): Promise<CategoryRow> {
  const row = await findCategoryById(executor, id);
  if (!row) throw notFoundError('Category', id);
  return row;
}
