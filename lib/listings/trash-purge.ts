import { config } from '../config.js';
import { getDb } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { queueImageRemovals, removeQueuedImages } from '../media/image-removals.js';
import { recordListingAudit } from './audit.js';
import { deleteExpiredTrash } from './trash-queries.js';

/** Listings removed from the trash per transaction, and the most batches of one sweep. */
const PURGE_BATCH = 100;
const PURGE_BATCHES_PER_SWEEP = 10;

/**
 * The sweeper's part: removes for good the listings in the trash for more than
 * `TRASH_RETENTION_DAYS` (each an audit entry, `purge`, by no actor), batch by batch. A batch's
 * rows, its queued images and its audit entries commit together, so an interrupted purge removes a
 * listing whole or not at all; its files are deleted after the commit, and those a process that
 * died then left behind are deleted by a later sweep (removeLeftBehindImages()). Answers how many went.
 */
export async function purgeExpiredTrash(): Promise<number> {
  const db = await getDb();
  const { trashRetentionDays } = config();
  let purged = 0;
  for (let batch = 0; batch < PURGE_BATCHES_PER_SWEEP; batch += 1) {
    const removed = await inTransaction(db, async (tx) => {
      const rows = await deleteExpiredTrash(tx, trashRetentionDays, PURGE_BATCH);
      await queueImageRemovals(tx, rows.flatMap((row) => row.images));
      for (const row of rows) await recordListingAudit(tx, null, 'purge', row, null);
      return rows;
    });
    await removeQueuedImages(removed.flatMap((row) => row.images));
    purged += removed.length;
    if (removed.length < PURGE_BATCH) break;
  }
  return purged;
}
