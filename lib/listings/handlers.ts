import type * as v from 'valibot';
import type { AuthUser } from '../http/access.js';
import { getCategoryOrThrow } from '../categories/queries.js';
import { getDb, type Executor } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { recordListingEvent } from '../events/listing-events.js';
import { ApiError, notFoundError } from '../http/api-error.js';
import type { IdParams } from '../http/common-schemas.js';
import { categoryTag, invalidateEdgeCache } from '../http/edge-cache.js';
import { created, ok, paginated, pagination, type DataReply, type PageReply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import type { Input } from '../http/endpoint-input.js';
import { markDirectUploadsAttached } from '../media/direct-upload-records.js';
import type { ProcessedImage } from '../media/image-processing.js';
import { findPhotoRecords, photoRecordsByRef, recordPhotos, type PhotoRecord } from '../media/photo-records.js';
import { acceptDirectUploads, removeImages, storeImages } from '../media/storage.js';
import { recordListingAudit } from './audit.js';
import { validateAttributes } from './attributes.js';
import { retainedImages } from './retained-images.js';
import { notifyListingCreated, notifyListingUpdated } from './notifications.js';
import { listingPresenter } from './presenter.js';
import {
  findAgentSummary,
  findListing,
  findListingDetails,
  imagesInUse,
  incrementViews,
  insertListing,
  listListingDetails,
  lockListing,
  saleChanges,
  updateListingRow,
  type AgentSummary,
  type ListingChanges,
  type ListingRow,
  type ShopListingRow,
} from './queries.js';
import { listTrashedListingDetails } from './trash-queries.js';
import { MAX_LISTING_IMAGES, type ListingCreateBody, type ListingListQuery, type ListingUpdateBody, type listingImagesForm } from './schema.js';
import type { ListingView } from './view.js';

type Caller = RequestContext<'token'>;
type ImageFiles = Input<{ form: typeof listingImagesForm }>['files'];
type ListingParams = v.InferOutput<typeof IdParams>;

/** An administrator manages every listing, an agent only their own. */
export function assertCanManage(user: AuthUser, listing: Pick<ListingRow, 'agentId'>): void {
  if (user.role !== 'SUPER_ADMIN' && listing.agentId !== user.id) throw ApiError.forbidden();
}

function processedImages(files: ImageFiles): ProcessedImage[] {
  return files.map((file) => file.value);
}

const refsOf = (records: readonly PhotoRecord[]) => records.map((record) => record.ref);

async function agentOrThrow(executor: Executor, id: string): Promise<AgentSummary> {
  const agent = await findAgentSummary(executor, id);
  if (!agent) throw notFoundError('User', id);
  return agent;
}

function assertImageCount(kept: number, added: number): void {
  if (kept + added > MAX_LISTING_IMAGES) {
    throw ApiError.badRequest(`A listing can have at most ${MAX_LISTING_IMAGES} images: ${kept} kept and ${added} new`);
  }
}

/** A directly uploaded image belongs to one listing only: deleting that listing deletes it from the image host. */
async function assertImagesUnused(tx: Executor, refs: string[]): Promise<void> {
  const inUse = await imagesInUse(tx, refs);
  if (inUse.length === 0) return;
  throw new ApiError(
    409,
    'imageRefs names an image a listing already has; a listing keeps its own images through existingImages',
    inUse.map((ref) => ({ field: `imageRefs[${refs.indexOf(ref)}]`, message: 'is already an image of a listing', received: ref })),
  );
}

/** Runs a write that references freshly stored images; if it fails, the images go again. */
async function withStoredImages<T>(refs: string[], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    await removeImages(refs);
    throw error;
  }
}

/**
 * Purges the cached public answers a committed listing write changed: the storefront's lists and
 * filters and the categories' counts, and each category the listing was or is in.
 */
export function invalidateListingAnswers(...categoryIds: string[]): Promise<void> {
  return invalidateEdgeCache(['listings', ...categoryIds.map(categoryTag)]);
}

async function loadDetails(executor: Executor, id: string) {
  const row = await findListingDetails(executor, id);
  if (!row) throw notFoundError('Listing', id);
  return row;
}

/** The create fields the spec requires, or a 400 naming every one that is missing, in the spec's order. */
function requiredCreateFields(body: ListingCreateBody, user: AuthUser) {
  const agentId = body.agentId ?? (user.role === 'AGENT' ? user.id : undefined);
  const present = { title: body.title, price: body.price, categoryId: body.categoryId, agentId };
  const missing = Object.entries(present)
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  if (missing.length > 0) throw ApiError.badRequest(`Missing required fields: ${missing.join(', ')}`);
  return present as { title: string; price: number; categoryId: string; agentId: string };
}

export async function createListing({ body, files }: Input<{ body: typeof ListingCreateBody; form: typeof listingImagesForm }>, ctx: Caller): Promise<DataReply<ListingView>> {
  const { user } = ctx;
  const { title, price, categoryId, agentId } = requiredCreateFields(body, user);
  if (user.role === 'AGENT' && agentId !== user.id) throw ApiError.forbidden();
  const db = await getDb();
  const category = await getCategoryOrThrow(db, categoryId);
  const agent = agentId === user.id ? { id: user.id, name: user.name, phone: user.phone } : await agentOrThrow(db, agentId);
  const attributes = validateAttributes(category.schemaRules, body.attributes ?? {});
  assertImageCount(0, files.length + (body.imageRefs?.length ?? 0));
  const uploaded = await acceptDirectUploads(body.imageRefs ?? [], 'imageRefs');
  const stored = await storeImages(processedImages(files));
  const added = [...stored, ...uploaded];
  const images = refsOf(added);
  const { listing, afterCommit } = await withStoredImages(refsOf(stored), () =>
    inTransaction(db, async (tx) => {
      await assertImagesUnused(tx, refsOf(uploaded));
      await markDirectUploadsAttached(tx, refsOf(uploaded));
      await recordPhotos(tx, added);
      const row = await insertListing(tx, {
        title,
        price,
        categoryId,
        agentId,
        attributes,
        images,
        description: body.description ?? '',
        status: body.status ?? 'AVAILABLE',
        stockQuantity: body.stockQuantity ?? 1,
        customTelegramCaption: body.customTelegramCaption ?? null,
        city: body.city ?? null,
        neighborhood: body.neighborhood ?? null,
      });
      await recordListingAudit(tx, ctx, 'create', null, row);
      await notifyListingCreated(tx, row, user);
      return { listing: row, afterCommit: await recordListingEvent(tx, { type: 'listing.created', listingId: row.id }) };
    }),
  );
  await invalidateListingAnswers(categoryId);
  void afterCommit();
  const { id, name, displayName, icon } = category;
  return created(listingPresenter({ ...listing, category: { id, name, displayName, icon }, agent }, photoRecordsByRef(added)));
}

export async function listListings({ query }: { query: ListingListQuery }, { user }: Caller): Promise<PageReply<ListingView>> {
  const db = await getDb();
  const agentId = user.role === 'SUPER_ADMIN' ? undefined : user.id;
  const { rows, total } = query.trashed ? await listTrashedListingDetails(db, query, agentId) : await listListingDetails(db, query, agentId);
  const photos = await findPhotoRecords(db, rows.flatMap((row) => row.images));
  return paginated(
    rows.map((row) => listingPresenter(row, photos)),
    pagination(query.page, query.limit, total),
  );
}

export async function getListing({ params }: { params: ListingParams }, { user }: Caller): Promise<DataReply<ListingView>> {
  const db = await getDb();
  const row = await loadDetails(db, params.id);
  assertCanManage(user, row);
  const viewsCount = await incrementViews(db, params.id);
  if (viewsCount === undefined) throw notFoundError('Listing', params.id);
  return ok(listingPresenter({ ...row, viewsCount }, await findPhotoRecords(db, row.images)));
}

function hasChanges(body: ListingUpdateBody, newFiles: number): boolean {
  return newFiles > 0 || Object.values(body).some((value) => value !== undefined);
}

const NO_STOCK_LEFT = 'No stock left to sell';

interface UpdatePlan {
  changes: ListingChanges;
  sold: boolean;
  /** The stored images to keep, in order; new ones are appended after them. */
  kept: string[];
  /** Stored images this update no longer references; deleted once it has committed. */
  dropped: string[];
}

/**
 * Validates an update against the listing as it is and works out the changes: the agent, the
 * attributes against the category they will belong to, the kept and dropped images and
 * the sale. Only reads, so it runs before new images are stored and again under the row lock.
 */
async function planUpdate(executor: Executor, listing: ShopListingRow, body: ListingUpdateBody, user: AuthUser, newImageCount: number): Promise<UpdatePlan> {
  // The direct uploads were checked before this plan and are appended by the caller.
  const { existingImages, imageRefs: _directUploads, attributes, status, stockQuantity, ...fields } = body;
  const changes: ListingChanges = { ...fields };
  if (body.agentId !== undefined && body.agentId !== listing.agentId) {
    if (user.role === 'AGENT') throw ApiError.forbidden();
    await agentOrThrow(executor, body.agentId);
  }
  const categoryChanges = body.categoryId !== undefined && body.categoryId !== listing.categoryId;
  if (attributes !== undefined || categoryChanges) {
    const category = await getCategoryOrThrow(executor, body.categoryId ?? listing.categoryId);
    changes.attributes = validateAttributes(category.schemaRules, attributes ?? listing.attributes);
  }
  const kept = existingImages === undefined ? listing.images : retainedImages(listing.images, existingImages);
  assertImageCount(kept.length, newImageCount);
  const sold = status === 'SOLD';
  // A sale needs stock (409 otherwise); run under the row lock, so concurrent sales never sell what is not there.
  if (sold && (listing.status === 'ARCHIVED' || (stockQuantity ?? listing.stockQuantity) <= 0)) throw ApiError.conflict(NO_STOCK_LEFT);
  Object.assign(changes, sold ? saleChanges(stockQuantity) : { status, stockQuantity });
  return { changes, sold, kept, dropped: listing.images.filter((ref) => !kept.includes(ref)) };
}

export async function updateListing(
  { params, body, files }: Input<{ params: typeof IdParams; body: typeof ListingUpdateBody; form: typeof listingImagesForm }>,
  ctx: Caller,
): Promise<DataReply<ListingView>> {
  const { user } = ctx;
  const newFiles = processedImages(files);
  if (!hasChanges(body, newFiles.length)) throw ApiError.badRequest('No fields to update');
  const uploaded = await acceptDirectUploads(body.imageRefs ?? [], 'imageRefs');
  const added = newFiles.length + uploaded.length;
  const db = await getDb();
  if (newFiles.length > 0) {
    // Refuse an invalid update before its images are stored; the plan is made again under the lock.
    const listing = await findListing(db, params.id);
    if (!listing) throw notFoundError('Listing', params.id);
    assertCanManage(user, listing);
    await planUpdate(db, listing, body, user, added);
  }
  const stored = await storeImages(newFiles);
  const { row, photos, categoryIds, dropped, afterCommit } = await withStoredImages(refsOf(stored), () =>
    inTransaction(db, async (tx) => {
      const listing = await lockListing(tx, params.id);
      if (!listing) throw notFoundError('Listing', params.id);
      assertCanManage(user, listing);
      const plan = await planUpdate(tx, listing, body, user, added);
      await assertImagesUnused(tx, refsOf(uploaded));
      await markDirectUploadsAttached(tx, refsOf(uploaded));
      await recordPhotos(tx, [...stored, ...uploaded]);
      if (body.existingImages !== undefined || added > 0) plan.changes.images = [...plan.kept, ...refsOf(stored), ...refsOf(uploaded)];
      const updated = await updateListingRow(tx, params.id, plan.changes);
      if (!updated) throw notFoundError('Listing', params.id);
      await recordListingAudit(tx, ctx, plan.sold ? 'sell' : 'update', listing, updated);
      await notifyListingUpdated(tx, updated, plan.sold);
      const recorded = await recordListingEvent(tx, { type: 'listing.updated', listingId: params.id });
      const details = await loadDetails(tx, params.id);
      const photos = await findPhotoRecords(tx, details.images);
      return { row: details, photos, categoryIds: [listing.categoryId, updated.categoryId], dropped: plan.dropped, afterCommit: recorded };
    }),
  );
  await invalidateListingAnswers(...categoryIds);
  await removeImages(dropped);
  void afterCommit();
  return ok(listingPresenter(row, photos));
}

