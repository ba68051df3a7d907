import { getDb } from '../db/client.js';
import { findListingWithRules } from '../listings/queries.js';
import { log } from '../log.js';
import { activeMessengerTarget } from './configs.js';
import { postListing, postPendingEntry } from './posting.js';
import { claimDueRetries, claimStalePendingLogs } from './queries.js';

/**
 * A `PENDING` entry older than this was left by an invocation that died: functions live at most
 * 30 s (`maxDuration`, lib/platform/build-output-writer.ts), so after a minute nobody is posting it any more.
 */
export const STALE_PENDING_SECONDS = 60;

export interface SweepOptions {
  /** Entries of each kind taken in one sweep. */
  limit?: number;
  /** How old a `PENDING` entry must be to count as left behind. */
  pendingOlderThanSeconds?: number;
}

export interface ChannelSweep {
  /** Entries left `PENDING` by an invocation that died, now posted (or failed anew). */
  resumed: number;
  /** Failed entries tried again as new attempts. */
  retried: number;
}

/**
 * Brings back channel posts that were left behind: entries whose invocation died are posted,
 * and failed ones whose failure can heal are tried again as new attempts, up to `limit` of each.
 * Each entry is claimed in one statement that skips what another sweep holds, so two sweeps at
 * once never post the same entry twice. The Bot API cannot say whether a message went out, so a
 * post whose invocation died after sending and before recording is sent again.
 */
export async function sweepChannelPosts({ limit = 20, pendingOlderThanSeconds = STALE_PENDING_SECONDS }: SweepOptions = {}): Promise<ChannelSweep> {
  const db = await getDb();
  const stale = await claimStalePendingLogs(db, pendingOlderThanSeconds, limit);
  for (const id of stale) await postPendingEntry(id);
  const due = await claimDueRetries(db, limit);
  const target = due.length > 0 ? await activeMessengerTarget(db) : undefined;
  let retried = 0;
  for (const entry of due) {
    const listing = await findListingWithRules(db, entry.listingId);
    if (!listing || !target || entry.channelInfo !== target.channelId) continue;
    await postListing(listing, entry.action === 'EDITED' ? 'EDITED' : 'NEW_POST', target, entry);
    retried += 1;
  }
  if (stale.length > 0 || retried > 0) log.info('channel sweep', { resumed: stale.length, retried });
  return { resumed: stale.length, retried };
}
