import type * as v from 'valibot';
import { getDb } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { ApiError, notFoundError } from '../http/api-error.js';
import type { IdParams } from '../http/common-schemas.js';
import { categoryTag, invalidateEdgeCache } from '../http/edge-cache.js';
import { created, ok, type DataReply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import { log } from '../log.js';
import { recordCategoryAudit } from './audit.js';
import { DEFAULT_CATEGORIES } from './default-categories.js';
import { categoryPresenter, categoryWithCountPresenter } from './presenter.js';
import {
  countListingsInCategory,
  releaseTrashedListingsFromCategory,
  deleteCategoryRow,
  findCategoryWithCount,
  insertCategory,
  listCategoriesWithCounts,
  listCategoriesWithCountsByName,
  lockCategory,
  updateCategoryRow,
} from './queries.js';
import type { CategoryCreate, CategoryUpdate } from './schema.js';
import { seedDefaultCategories } from './seed.js';
import type { DeletedView } from '../http/common-views.js';
import type { CategoryView, SeedView } from './view.js';

type Params = v.InferOutput<typeof IdParams>;
type Caller = RequestContext<'admin'>;

export async function listCategories(): Promise<DataReply<CategoryView[]>> {
  const db = await getDb();
  const rows = await listCategoriesWithCounts(db);
  return ok(rows.map(categoryWithCountPresenter));
}

export async function getCategory({ params }: { params: Params }): Promise<DataReply<CategoryView>> {
  const db = await getDb();
  const row = await findCategoryWithCount(db, params.id);
  if (!row) throw notFoundError('Category', params.id);
  return ok(categoryWithCountPresenter(row));
}

export async function createCategory({ body }: { body: CategoryCreate }, ctx: Caller): Promise<DataReply<CategoryView>> {
  const db = await getDb();
  const row = await inTransaction(db, async (tx) => {
    const inserted = await insertCategory(tx, body);
    await recordCategoryAudit(tx, ctx, 'create', null, inserted);
    return inserted;
  });
  await invalidateEdgeCache(['categories']);
  return created(categoryPresenter(row, 0));
}

/** Replaces the given fields; listings keep their attributes even when the rules change. */
export async function updateCategory({ params, body }: { params: Params; body: CategoryUpdate }, ctx: Caller): Promise<DataReply<CategoryView>> {
  const db = await getDb();
  const presented = await inTransaction(db, async (tx) => {
    const before = await lockCategory(tx, params.id);
    const row = before && (await updateCategoryRow(tx, params.id, body));
    if (!row) throw notFoundError('Category', params.id);
    await recordCategoryAudit(tx, ctx, 'update', before, row);
    return categoryPresenter(row, await countListingsInCategory(tx, row.id));
  });
  await invalidateEdgeCache(['categories', categoryTag(params.id)]);
  return ok(presented);
}

export async function deleteCategory({ params }: { params: Params }, ctx: Caller): Promise<DataReply<DeletedView>> {
  const db = await getDb();
  await inTransaction(db, async (tx) => {
    const category = await lockCategory(tx, params.id);
    if (!category) throw notFoundError('Category', params.id);
    // Listings in the trash let the category go first (a restore of one waits for this transaction,
    // then finds the category gone); a listing restored just before is then counted in the shop.
    const releasedFromTrash = await releaseTrashedListingsFromCategory(tx, category);
    const inUse = await countListingsInCategory(tx, category.id);
    if (inUse > 0) {
      const listingsUsingIt = inUse === 1 ? '1 listing uses it' : `${inUse} listings use it`;
      throw ApiError.conflict(`Category "${category.displayName}" cannot be deleted: ${listingsUsingIt}`);
    }
    await deleteCategoryRow(tx, category.id);
    await recordCategoryAudit(tx, ctx, 'delete', category, null);
    if (releasedFromTrash > 0) log.info('category deleted with listings in the trash', { categoryId: category.id, releasedFromTrash });
  });
  await invalidateEdgeCache(['categories', categoryTag(params.id)]);
  return ok({ id: params.id });
}

/** Each category the seeding creates is one audit entry, `seed`, so each category's history starts with it. */
export async function seedCategories(_input: unknown, ctx: Caller): Promise<DataReply<SeedView>> {
  const db = await getDb();
  const outcome = await inTransaction(db, async (tx) => {
    const seeded = await seedDefaultCategories(tx);
    for (const row of await listCategoriesWithCountsByName(tx, seeded.created)) await recordCategoryAudit(tx, ctx, 'seed', null, row);
    return seeded;
  });
  if (outcome.created.length > 0) {
    log.info('default categories created', { created: outcome.created });
    await invalidateEdgeCache(['categories']);
  }
  const rows = await listCategoriesWithCountsByName(db, DEFAULT_CATEGORIES.map((definition) => definition.name));
  return ok({ ...outcome, categories: rows.map(categoryWithCountPresenter) });
}
