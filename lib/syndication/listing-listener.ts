import { getDb } from '../db/client.js';
import type { ListingEvent } from '../events/listing-events.js';
import { findListingWithRules } from '../listings/queries.js';
import { log } from '../log.js';
import type { ChannelPost } from './channel-posts.js';
import { activeMessengerTarget, type MessengerTarget } from './configs.js';
import { postListing } from './posting.js';
import { lastPostedMessage } from './queries.js';

/** Removes a deleted listing's channel messages; a failure is logged and the other channels go on. */
async function removeChannelPosts(target: MessengerTarget, listingId: string, posts: ChannelPost[]): Promise<void> {
  if (posts.length === 0) return;
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
 * Mirrors listing writes on the channel (D13): a created listing is posted; an updated one has its
 * post edited, or is posted when it has no successful post yet; a deleted one has its posts
 * removed. Without an active config nothing happens.
 */
export async function syndicateListingEvent(event: ListingEvent): Promise<void> {
  const db = await getDb();
  const target = await activeMessengerTarget(db);
  if (!target) return;
  if (event.type === 'listing.deleted') return removeChannelPosts(target, event.listingId, event.channelPosts);
  const listing = await findListingWithRules(db, event.listingId);
  if (!listing) return;
  const hasPost = event.type === 'listing.updated' && (await lastPostedMessage(db, listing.id, target.channelId)) !== undefined;
  await postListing(listing, hasPost ? 'EDITED' : 'NEW_POST', target);
}
