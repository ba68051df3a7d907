import type { Transaction } from '../db/client.js';
import type { AfterCommit, ListingEvent } from '../events/listing-events.js';
import { log } from '../log.js';
import { channelPostsOfListing, type ChannelPost } from './channel-posts.js';
import { activeMessengerTarget, MESSENGER, type MessengerTarget } from './configs.js';
import { postPendingEntry } from './posting.js';
import { insertPendingLog, lastPostedMessage } from './queries.js';
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

/**
 * Mirrors listing writes on the channel, as an outbox: inside the write's transaction a
 * created listing gets a `PENDING` NEW_POST entry, an updated one an EDITED entry (or NEW_POST when
 * it has no successful post yet), so a process that dies after answering leaves the entry for the
 * sweeper. The post itself goes out after the commit. A deleted listing has its posts, read before
 * the row goes, removed after the commit. Without an active config nothing happens.
 */
export async function syndicateListingEvent(event: ListingEvent, tx: Transaction): Promise<AfterCommit | undefined> {
  const target = await activeMessengerTarget(tx);
  if (!target) return undefined;
  if (event.type === 'listing.deleted') {
    const posts = await channelPostsOfListing(tx, event.listingId);
    return posts.length > 0 ? () => removeChannelPosts(target, event.listingId, posts) : undefined;
  }
  const hasPost = event.type === 'listing.updated' && (await lastPostedMessage(tx, event.listingId, target.channelId)) !== undefined;
  const entry = await insertPendingLog(tx, { listingId: event.listingId, platform: MESSENGER, action: hasPost ? 'EDITED' : 'NEW_POST', channelInfo: target.channelId });
  return async () => {
    await postPendingEntry(entry.id);
    await sweepChannelPosts({ limit: SWEEP_AFTER_WRITE });
  };
}
