import { arrayContains, asc, gt } from 'drizzle-orm/sql/expressions';
import { count } from 'drizzle-orm/sql/functions/aggregate';
import type { Database, Executor } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { listings } from '../db/schema.js';
import { log } from '../log.js';
import { findPhotoRecords, recordPhotos } from '../media/photo-records.js';
import { describeStoredImage, removeImages, storageFor } from '../media/storage.js';

export interface BackfillProgress {
  listingsScanned: number;
  listingsTotal: number;
  described: number;
  alreadyDescribed: number;
  skipped: number;
}

export interface BackfillSummary extends BackfillProgress {
  /** The images left undescribed: unreadable, or kept by no storage of this service. */
  skippedRefs: Array<{ ref: string; reason: string }>;
}

export interface BackfillOptions {
  /** Listings read per step. */
  batchSize?: number;
  onProgress?: (progress: BackfillProgress) => void;
}

/** The describing of one image that went wrong, in words for the log and the summary. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Describes every listing image that has no photo record yet (stored before photos were described,
 * or adopted): its size and placeholder, and its renditions where the storage keeps them as files.
 * Listings are walked in id order, one batch at a time; an image already described is passed over,
 * so a run that stopped is simply run again, and a second run changes nothing. An image that cannot
 * be read or decoded is logged and skipped, and the run goes on.
 */
export async function backfillPhotos(db: Database, options: BackfillOptions = {}): Promise<BackfillSummary> {
  const batchSize = options.batchSize ?? 200;
  const [totals] = await db.select({ listings: count() }).from(listings);
  const summary: BackfillSummary = { listingsScanned: 0, listingsTotal: totals?.listings ?? 0, described: 0, alreadyDescribed: 0, skipped: 0, skippedRefs: [] };
  let after: string | undefined;
  for (;;) {
    const batch = await db
      .select({ id: listings.id, images: listings.images })
      .from(listings)
      .where(after === undefined ? undefined : gt(listings.id, after))
      .orderBy(asc(listings.id))
      .limit(batchSize);
    if (batch.length === 0) break;
    after = batch.at(-1)!.id;
    const refs = [...new Set(batch.flatMap((row) => row.images))];
    const described = await findPhotoRecords(db, refs);
    summary.alreadyDescribed += described.size;
    // One image at a time: memory stays that of one decode, as at upload.
    for (const ref of refs.filter((candidate) => !described.has(candidate))) {
      const reason = await describeOne(db, ref);
      if (reason === undefined) {
        summary.described += 1;
      } else {
        summary.skipped += 1;
        summary.skippedRefs.push({ ref, reason });
        log.warn('photo backfill skipped an image', { ref, reason });
      }
    }
    summary.listingsScanned += batch.length;
    const { skippedRefs: _skippedRefs, ...progress } = summary;
    options.onProgress?.(progress);
  }
  return summary;
}

/**
 * Whether a listing still has the image, holding those listings until the transaction ends: a write
 * that drops the image (or deletes its listing) waits, or has already committed and is seen.
 */
async function stillListed(tx: Executor, ref: string): Promise<boolean> {
  const holders = await tx.select({ id: listings.id }).from(listings).where(arrayContains(listings.images, [ref])).for('share');
  return holders.length > 0;
}

/**
 * Describes and records one image; answers why not when it cannot. An image a listing write dropped
 * while it was being described gets no record, and the renditions just made go with it.
 */
async function describeOne(db: Database, ref: string): Promise<string | undefined> {
  const storage = await storageFor(ref);
  if (!storage) return 'not kept by this service\'s storage';
  let record;
  try {
    record = await describeStoredImage(storage, ref);
  } catch (error) {
    return reasonOf(error);
  }
  const recorded = await inTransaction(db, async (tx) => {
    if (!(await stillListed(tx, ref))) return false;
    await recordPhotos(tx, [record]);
    return true;
  });
  if (recorded) return undefined;
  await removeImages([ref]);
  return 'no longer an image of any listing';
}
