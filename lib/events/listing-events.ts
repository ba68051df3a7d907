import { defer } from '../http/deferred-work.js';
import type { ChannelPost } from '../syndication/channel-posts.js';

/** Lifecycle events of a listing, emitted after the write has committed. */
export type ListingEvent =
  | { type: 'listing.created'; listingId: string }
  | { type: 'listing.updated'; listingId: string }
  /** The listing row is gone; `channelPosts` were read before it was deleted. */
  | { type: 'listing.deleted'; listingId: string; title: string; channelPosts: ChannelPost[] };

export type ListingEventListener = (event: ListingEvent) => Promise<void>;

/**
 * Listeners are modules loaded on first use, so that a function that never emits (every read
 * path) never imports what the listeners need (such as the bot client).
 */
const listenerModules: Array<() => Promise<ListingEventListener>> = [];

export function onListingEvent(load: () => Promise<ListingEventListener>): void {
  listenerModules.push(load);
}

/**
 * Runs every listener inside this invocation: the returned promise settles when they all have, and
 * the work is also handed to the platform's `waitUntil`, so a frozen function never loses it.
 * Listener failures are logged, never thrown to the writer.
 */
export function emitListingEvent(event: ListingEvent): Promise<void> {
  return defer(event.type, async () => {
    const listeners = await Promise.all(listenerModules.map((load) => load()));
    await Promise.all(listeners.map((listener) => listener(event)));
  });
}

/** The channel mirrors listing writes (D13). */
onListingEvent(() => import('../syndication/listing-listener.js').then((module) => module.syndicateListingEvent));
