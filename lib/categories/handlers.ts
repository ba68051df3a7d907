import type * as v from 'valibot';
import { getDb } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { ApiError, notFoundError } from '../http/api-error.js';
import type { IdParams } from '../http/common-schemas.js';
import { categoryTag, invalidateEdgeCache } from '../http/edge-cache.js';
import { created, ok, type Reply } from '../http/reply.js';
import { log } from '../log.js';
import { DEFAULT_CATEGORIES } from './default-categories.js';
import { categoryPresenter, categoryWithCountPresenter } from './presenter.js';
import {
  countListingsInCategory,
  deleteCategoryRow,
  findCategoryWithCount,
  insertCategory,
  listCategoriesWithCounts,
  listCategoriesWithCountsByName,
  lockCategoryForDelete,
  updateCategoryRow,
} from './queries.js';
import type { CategoryCreate, CategoryUpdate } from './schema.js';
import { seedDefaultCategories } from './seed.js';

type Params = v.InferOutput<typeof IdParams>;

export async function listCategories(): Promise<Reply> {
  const db = await getDb();
  const rows = await listCategoriesWithCounts(db);
  return ok(rows.map(categoryWithCountPresenter));
}

export async function getCategory({ params }: { params: Params }): Promise<Reply> {
  const db = await getDb();
  const row = await findCategoryWithCount(db, params.id);
  if (!row) throw notFoundError('Category', params.id);
  return ok(categoryWithCountPresenter(row));
}

export async function createCategory({ body }: { body: CategoryCreate }): Promise<Reply> {
  const db = await getDb();
  const row = await insertCategory(db, body);
  await invalidateEdgeCache(['categories']);
  return created(categoryPresenter(row, 0));
}

/** Replaces the given fields; listings keep their attributes even when the rules change. */
export async function updateCategory({ params, body }: { params: Params; body: CategoryUpdate }): Promise<Reply> {
  const db = await getDb();
  const presented = await inTransaction(db, async (tx) => {
    const row = await updateCategoryRow(tx, params.id, body);
    if (!row) throw notFoundError('Category', params.id);
    return categoryPresenter(row, await countListingsInCategory(tx, row.id));
  });
  await invalidateEdgeCache(['categories', categoryTag(params.id)]);
  return ok(presented);
}

export async function deleteCategory({ params }: { params: Params }): Promise<Reply> {
  const db = await getDb();
  await inTransaction(db, async (tx) => {
    const category = await lockCategoryForDelete(tx, params.id);
    if (!category) throw notFoundError('Category', params.id);
    const inUse = await countListingsInCategory(tx, category.id);
    if (inUse > 0) {
      const listingsUsingIt = inUse === 1 ? '1 listing uses it' : `${inUse} listings use it`;
      throw ApiError.conflict(`Category "${category.displayName}" cannot be deleted: ${listingsUsingIt}`);
    }
    await deleteCategoryRow(tx, category.id);
  });
  await invalidateEdgeCache(['categories', categoryTag(params.id)]);
  return ok({ id: params.id });
}

export async function seedCategories(): Promise<Reply> {
  const db = await getDb();
  const outcome = await seedDefaultCategories(db);
  if (outcome.created.length > 0) {
    log.info('default categories created', { created: outcome.created });
    await invalidateEdgeCache(['categories']);
  }
  const rows = await listCategoriesWithCountsByName(db, DEFAULT_CATEGORIES.map((definition) => definition.name));
  return ok({ ...outcome, categories: rows.map(categoryWithCountPresenter) });
}
