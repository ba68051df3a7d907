import { removeExpiredAuditEntries } from '../audit/handlers.js';
import { removeExpiredIdempotencyKeys } from '../http/idempotency.js';
import { purgeExpiredTrash } from '../listings/trash-purge.js';
import { removeLeftBehindImages } from '../media/image-removals.js';
import { removeUnattachedUploads } from '../media/storage.js';
import { ok, type DataReply } from '../http/reply.js';
import { sweepChannelPosts, type ChannelSweep, type SweepOptions } from '../syndication/sweeper.js';
import type { SweepView } from './view.js';

export interface SweepReport {
  channelPosts: ChannelSweep;
  /** Idempotency keys past their 24 hours, removed. */
  idempotencyKeysRemoved: number;
  /** Direct uploads no listing took within a day, removed from the image host. */
  unattachedUploadsRemoved: number;
  /** Audit entries past `AUDIT_RETENTION_DAYS`, removed. */
  auditEntriesRemoved: number;
  /** Listings in the trash for more than `TRASH_RETENTION_DAYS`, removed for good with their images. */
  trashedListingsPurged: number;
  /** Images of listings removed for good whose files a process that died left behind, deleted now. */
  leftBehindImagesRemoved: number;
}

/**
 * One sweep: channel posts left behind or due again, expired idempotency keys, unattached uploads,
 * old audit entries, listings past their time in the trash, and images left behind.
 */
export async function sweep(options: SweepOptions = {}): Promise<SweepReport> {
  return {
    channelPosts: await sweepChannelPosts(options),
    idempotencyKeysRemoved: await removeExpiredIdempotencyKeys(),
    unattachedUploadsRemoved: await removeUnattachedUploads(),
    auditEntriesRemoved: await removeExpiredAuditEntries(),
    trashedListingsPurged: await purgeExpiredTrash(),
    leftBehindImagesRemoved: await removeLeftBehindImages(),
  };
}

/** `GET /api/cron/sweep`: what the scheduler runs. */
export async function runSweep(): Promise<DataReply<SweepView>> {
  return ok(await sweep());
}
