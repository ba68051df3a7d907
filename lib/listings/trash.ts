import { getDb } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { recordListingEvent } from '../events/listing-events.js';
import { ApiError, notFoundError } from '../http/api-error.js';
import type { IdParams } from '../http/common-schemas.js';
import type { RequestContext } from '../http/endpoint.js';
import type { Input } from '../http/endpoint-input.js';
import { ok, type DataReply } from '../http/reply.js';
import { queueImageRemovals, removeQueuedImages } from '../media/image-removals.js';
import { findPhotoRecords } from '../media/photo-records.js';
import { recordListingAudit } from './audit.js';
import { assertCanManage, invalidateListingAnswers } from './handlers.js';
import { listingPresenter } from './presenter.js';
import { deleteListingRow, findListingDetails, inShop, lockListing, lockListingInOrOutOfTrash, type ListingRow } from './queries.js';
import type { ListingDeleteQuery } from './schema.js';
import { bringBackFromTrash, moveListingToTrash } from './trash-queries.js';
import type { DeletedView } from '../http/common-views.js';
import type { ListingView } from './view.js';

type Caller = RequestContext<'token'>;

/** An administrator acts on any listing; an agent on their own only, and another agent's is not found, in the trash or not. */
function ownListingOrThrow(ctx: Caller, row: ListingRow | undefined, id: string): ListingRow {
  if (!row || (ctx.user.role !== 'SUPER_ADMIN' && row.agentId !== ctx.user.id)) throw notFoundError('Listing', id);
  return row;
}

/**
 * `DELETE /api/listings/:id`: moves the listing to the trash. It leaves the storefront, every list,
 * every count and the search at once (the statistics triggers take it out), its channel posts are
 * taken down after the commit, and its images stay, for a restore. One already in the trash is not found.
 */
async function moveToTrash(id: string, ctx: Caller): Promise<DataReply<DeletedView>> {
  const db = await getDb();
  const { listing, afterCommit } = await inTransaction(db, async (tx) => {
    const row = await lockListing(tx, id);
    if (!row) throw notFoundError('Listing', id);
    assertCanManage(ctx.user, row);
    const trashed = await moveListingToTrash(tx, id);
    await recordListingAudit(tx, ctx, 'trash', row, trashed!);
    return { listing: row, afterCommit: await recordListingEvent(tx, { type: 'listing.deleted', listingId: id }) };
  });
  await invalidateListingAnswers(listing.categoryId);
  void afterCommit();
  return ok({ id });
}

/**
 * `DELETE /api/listings/:id?permanent=true`: removes the listing and its images for good, by an
 * administrator, or by its agent once it is in the trash. One out of the trash passes through it
 * first, in the same transaction (an entry in the audit trail for each step). The images are
 * queued for removal with the listing's row, and deleted after the commit.
 */
async function removeForGood(id: string, ctx: Caller): Promise<DataReply<DeletedView>> {
  const db = await getDb();
  const { listing, afterCommit } = await inTransaction(db, async (tx) => {
    const row = ownListingOrThrow(ctx, await lockListingInOrOutOfTrash(tx, id), id);
    let inTrash = row;
    let recorded: (() => Promise<void>) | undefined;
    if (row.deletedAt === null) {
      if (ctx.user.role !== 'SUPER_ADMIN') throw ApiError.conflict('Only a listing in the trash can be deleted for good by its agent: delete it without permanent first');
      inTrash = (await moveListingToTrash(tx, id))!;
      await recordListingAudit(tx, ctx, 'trash', row, inTrash);
      // Recorded before the row goes: the listener reads its channel posts.
      recorded = await recordListingEvent(tx, { type: 'listing.deleted', listingId: id });
    }
    await deleteListingRow(tx, id);
    await queueImageRemovals(tx, row.images);
    await recordListingAudit(tx, ctx, 'delete', inTrash, null, row.deletedAt === null ? 1 : undefined);
    return { listing: row, afterCommit: recorded };
  });
  if (listing.deletedAt === null) await invalidateListingAnswers(inShop(listing).categoryId);
  await removeQueuedImages(listing.images);
  void afterCommit?.();
  return ok({ id });
}

export async function deleteListing({ params, query }: Input<{ params: typeof IdParams; query: typeof ListingDeleteQuery }>, ctx: Caller): Promise<DataReply<DeletedView>> {
  return query.permanent ? removeForGood(params.id, ctx) : moveToTrash(params.id, ctx);
}

/**
 * `POST /api/listings/:id/restore`: brings a listing back from the trash as it was (status, stock,
 * attributes, photos, and so its counts, search and place in every list), by an administrator or
 * its agent. An available one is posted to the channel again when posting is on. One out of the
 * trash is 409; of two restores at once, the second finds it out. One whose category was deleted
 * while it was in the trash has nowhere to go back to: 409, naming the category.
 */
export async function restoreListing({ params }: Input<{ params: typeof IdParams }>, ctx: Caller): Promise<DataReply<ListingView>> {
  const db = await getDb();
  const { details, categoryId, afterCommit } = await inTransaction(db, async (tx) => {
    const row = ownListingOrThrow(ctx, await lockListingInOrOutOfTrash(tx, params.id), params.id);
    if (row.categoryId === null) {
      throw ApiError.conflict(`Category "${row.removedCategory}" was deleted while the listing was in the trash: it cannot be restored`);
    }
    const restored = row.deletedAt === null ? undefined : await bringBackFromTrash(tx, params.id);
    if (!restored) throw ApiError.conflict('The listing is not in the trash');
    await recordListingAudit(tx, ctx, 'restore', row, restored);
    const recorded = await recordListingEvent(tx, { type: 'listing.restored', listingId: params.id });
    return { details: (await findListingDetails(tx, params.id))!, categoryId: restored.categoryId, afterCommit: recorded };
  });
  await invalidateListingAnswers(categoryId);
  void afterCommit();
  return ok(listingPresenter(details, await findPhotoRecords(db, details.images)));
}
