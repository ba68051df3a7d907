import type { Transaction } from '../db/client.js';
import type { AfterCommit, ListingEvent } from '../events/listing-events.js';
import { findListingWithRules } from '../listings/queries.js';
import { log } from '../log.js';
import { channelPostsOfListing, type ChannelPost } from './channel-posts.js';
import { activeMessengerTarget, MESSENGER, type MessengerTarget } from './configs.js';
import { postPendingEntry } from './posting.js';
import { insertPendingLog, lastPostedMessage, settleEntriesOfRemovedListing } from './queries.js';
import { sweepChannelPosts } from './sweeper.js';

/** After a listing write, the sweeper also takes up to this many due entries: a daily cron then still recovers within minutes. */
const SWEEP_AFTER_WRITE = 3;

/** Removes a deleted listing's channel messages; a failure is logged and the other channels go on. */
async function removeChannelPosts(target: MessengerTarget, listingId: string, posts: ChannelPost[]): Promise<void> {
  const { channelPublisher } = await import('./channel-publisher.js');
  const publisher = channelPublisher(target.botToken);
  await Promise.all(
    posts.map((post) =>
      publisher.deleteMessages(post.channelInfo, post.messageIds).catch((error: unknown) => {
        log.warn('could not delete the channel posts of a deleted listing', { listingId, messageIds: post.messageIds, error: (error as Error).message });
      }),
    ),
  );
}

/** The post a write records: a created or restored listing is posted anew, an updated one edits its post (or is posted when it has none). */
async function postActionOf(event: ListingEvent, tx: Transaction, target: MessengerTarget): Promise<'NEW_POST' | 'EDITED' | undefined> {
  switch (event.type) {
    case 'listing.created':
      return 'NEW_POST';
    case 'listing.updated':
      return (await lastPostedMessage(tx, event.listingId, target.channelId)) === undefined ? 'NEW_POST' : 'EDITED';
    case 'listing.restored':
      // Its posts were taken down when it went to the trash: only one for sale is posted again.
      return (await findListingWithRules(tx, event.listingId))?.status === 'AVAILABLE' ? 'NEW_POST' : undefined;
    case 'listing.deleted':
      return undefined;
  }
}

/**
 * Mirrors listing writes on the channel, as an outbox: inside the write's transaction a
 * created listing gets a `PENDING` NEW_POST entry, an updated one an EDITED entry (or NEW_POST when
 * it has no successful post yet), a restored available one a NEW_POST entry, so a process that dies
 * after answering leaves the entry for the sweeper. The post itself goes out after the commit. A
 * listing that leaves the shop (to the trash, or for good) has its entries still waiting settled,
 * and its posts, read before a removal deletes the row, removed after the commit. Without an
 * active config nothing is posted or removed.
 */
export async function syndicateListingEvent(event: ListingEvent, tx: Transaction): Promise<AfterCommit | undefined> {
  if (event.type === 'listing.deleted') await settleEntriesOfRemovedListing(tx, event.listingId);
  const target = await activeMessengerTarget(tx);
  if (!target) return undefined;
  if (event.type === 'listing.deleted') {
    const posts = await channelPostsOfListing(tx, event.listingId);
    return posts.length > 0 ? () => removeChannelPosts(target, event.listingId, posts) : undefined;
  }
  const action = await postActionOf(event, tx, target);
  if (action === undefined) return undefined;
  const entry = await insertPendingLog(tx, { listingId: event.listingId, platform: MESSENGER, action, channelInfo: target.channelId });
  return async () => {
    await postPendingEntry(entry.id);
    await sweepChannelPosts({ limit: SWEEP_AFTER_WRITE });
  };
}
