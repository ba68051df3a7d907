import { inArray, lt } from 'drizzle-orm/sql/expressions/conditions';
import { sql } from 'drizzle-orm/sql/sql';
import { getDb, type Executor } from '../db/client.js';
import { imageRemovals } from '../db/schema.js';
import { removeStoredImages } from './storage.js';

/**
 * A queued removal older than this was left by a process that died between removing a listing and
 * deleting its files (functions live at most 30 s), or whose files could not be deleted then.
 */
const LEFT_BEHIND_SECONDS = 60;

/**
 * Queues the files of images that a listing removed for good no longer needs, in the transaction
 * that removes it: the queue commits with the removal, so no file can outlive both.
 */
export async function queueImageRemovals(tx: Executor, refs: readonly string[]): Promise<void> {
  if (refs.length === 0) return;
  await tx
    .insert(imageRemovals)
    .values([...new Set(refs)].map((ref) => ({ ref })))
    .onConflictDoNothing({ target: imageRemovals.ref });
}

/**
 * Deletes the files of queued images once their removal has committed, and takes off the queue
 * those that went; one whose file could not be deleted stays queued for the sweeper.
 */
export async function removeQueuedImages(refs: readonly string[]): Promise<void> {
  if (refs.length === 0) return;
  const failed = new Set(await removeStoredImages(refs));
  const removed = refs.filter((ref) => !failed.has(ref));
  if (removed.length > 0) await (await getDb()).delete(imageRemovals).where(inArray(imageRemovals.ref, removed));
}

/**
 * The sweeper's part: takes up to `limit` removals left behind (their time moves to now, so no other
 * sweep takes them meanwhile, and rows another sweep holds are skipped) and deletes their files.
 * Answers how many were taken.
 */
export async function removeLeftBehindImages(limit = 100): Promise<number> {
  const db = await getDb();
  const leftBehind = db
    .select({ ref: imageRemovals.ref })
    .from(imageRemovals)
    .where(lt(imageRemovals.queuedAt, sql`now() - make_interval(secs => ${LEFT_BEHIND_SECONDS})`))
    .orderBy(imageRemovals.queuedAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(imageRemovals)
    .set({ queuedAt: sql`now()` })
    .where(inArray(imageRemovals.ref, leftBehind))
    .returning({ ref: imageRemovals.ref });
  await removeQueuedImages(claimed.map((row) => row.ref));
  return claimed.length;
}
