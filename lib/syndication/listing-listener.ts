import { getDb } from '../db/client.js';
import type { ListingEvent } from '../events/listing-events.js';
import { findListingWithRules } from '../listings/queries.js';
import { log } from '../log.js';
import type { ChannelPost } from './channel-posts.js';
import { activeMessengerTarget, type MessengerTarget } from './configs.js';
import { postListing } from './posting.js';
import { lastPostedMessage } from './queries.js';

/** Removes a deleted listing's channel messages; each failure is logged and the rest go on. */
async function removeChannelPosts(target: MessengerTarget, listingId: string, posts: ChannelPost[]): Promise<void> {
  if (posts.length === 0) return;
  const { channelPublisher } = await import('./channel-publisher.js');
  const publisher = channelPublisher(target.botToken);
  await Promise.all(
    posts.map((post) =>
      publisher.deleteMessage(post.channelInfo, post.messageId).catch((error: unknown) => {
        log.warn('could not delete a channel post of a deleted listing', { listingId, messageId: post.messageId, error: (error as Error).message });
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
