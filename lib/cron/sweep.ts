import { removeExpiredAuditEntries } from '../audit/handlers.js';
import { removeExpiredIdempotencyKeys } from '../http/idempotency.js';
import { removeUnattachedUploads } from '../media/storage.js';
import { ok, type Reply } from '../http/reply.js';
import { sweepChannelPosts, type ChannelSweep, type SweepOptions } from '../syndication/sweeper.js';

export interface SweepReport {
  channelPosts: ChannelSweep;
  /** Idempotency keys past their 24 hours, removed. */
  idempotencyKeysRemoved: number;
  /** Direct uploads no listing took within a day, removed from the image host. */
  unattachedUploadsRemoved: number;
  /** Audit entries past `AUDIT_RETENTION_DAYS`, removed. */
  auditEntriesRemoved: number;
}

/** One sweep: channel posts left behind or due again, expired idempotency keys, unattached uploads, old audit entries. */
export async function sweep(options: SweepOptions = {}): Promise<SweepReport> {
  return {
    channelPosts: await sweepChannelPosts(options),
    idempotencyKeysRemoved: await removeExpiredIdempotencyKeys(),
    unattachedUploadsRemoved: await removeUnattachedUploads(),
    auditEntriesRemoved: await removeExpiredAuditEntries(),
  };
}

/** `GET /api/cron/sweep`: what the scheduler runs. */
export async function runSweep(): Promise<Reply> {
  return ok(await sweep());
}
