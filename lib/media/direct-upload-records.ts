import { inArray, lt } from 'drizzle-orm/sql/expressions/conditions';
import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { directUploads } from '../db/schema.js';

/** An image no listing took within this many hours of its ticket is removed (the sweeper). */
const UNATTACHED_LIFETIME_HOURS = 24;

export async function recordIssuedUpload(executor: Executor, publicId: string, userId: string): Promise<void> {
  await executor.insert(directUploads).values({ publicId, userId });
}

/** The public id of a direct upload's reference (`…/image/upload/v<version>/<public id>.webp`). */
function publicIdOfRef(ref: string): string | undefined {
  const match = /\/image\/upload\/v\d+\/(.+)\.[a-z0-9]+$/i.exec(new URL(ref).pathname);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

/** In the transaction of the listing write that takes them: these images are a listing's now. */
export async function markDirectUploadsAttached(executor: Executor, refs: readonly string[]): Promise<void> {
  const publicIds = refs.flatMap((ref) => publicIdOfRef(ref) ?? []);
  if (publicIds.length === 0) return;
  await executor.update(directUploads).set({ attachedAt: sql`now()` }).where(inArray(directUploads.publicId, publicIds));
}

/**
 * Takes up to `limit` tickets older than a day: those no listing took are answered for removal from
 * the image host; the records of both kinds are deleted. Rows another sweep holds are skipped.
 */
export async function claimExpiredUploads(executor: Executor, limit: number): Promise<string[]> {
  const expired = executor
    .select({ publicId: directUploads.publicId })
    .from(directUploads)
    .where(lt(directUploads.issuedAt, sql`now() - make_interval(hours => ${UNATTACHED_LIFETIME_HOURS})`))
    .orderBy(directUploads.issuedAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  const removed = await executor
    .delete(directUploads)
    .where(inArray(directUploads.publicId, expired))
    .returning({ publicId: directUploads.publicId, attachedAt: directUploads.attachedAt });
  return removed.filter((row) => row.attachedAt === null).map((row) => row.publicId);
}
