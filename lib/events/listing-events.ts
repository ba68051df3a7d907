import type { Transaction } from '../db/client.js';
import { defer } from '../http/deferred-work.js';

/** Lifecycle events of a listing, recorded inside the transaction that writes it. */
export type ListingEvent =
  | { type: 'listing.created'; listingId: string }
  | { type: 'listing.updated'; listingId: string }
  /**
   * The listing left the shop: moved to the trash, or removed for good without passing through it.
   * Recorded before a removal deletes the row, in the same transaction: the listing can still be read.
   */
  | { type: 'listing.deleted'; listingId: string }
  /** The listing came back from the trash as it was. */
  | { type: 'listing.restored'; listingId: string };

/** Work a listener starts once the write has committed. */
export type AfterCommit = () => Promise<void>;

/**
 * A listener sees the event inside the writer's transaction, so what it records there (an outbox
 * row) commits or rolls back with the write, and answers the work to run after the commit.
 */
export type ListingEventListener = (event: ListingEvent, tx: Transaction) => Promise<AfterCommit | undefined>;

/**
 * Listeners are modules loaded on first use, registered by the composition root
 * (registerDomainListeners() in lib/domain-listeners.ts, which each function that writes listings runs as it starts),
 * so that the event module knows no listener and a function that never writes never loads one.
 */
const listenerModules: Array<() => Promise<ListingEventListener>> = [];

export function onListingEvent(load: () => Promise<ListingEventListener>): void {
  listenerModules.push(load);
}

/**
 * Runs every listener inside the transaction and answers a function that starts their follow-up
 * work: call it once the transaction has committed. The work runs after the response, kept alive
 * by the platform's `waitUntil`; the returned promise settles when it has. Failures are logged.
 */
export async function recordListingEvent(tx: Transaction, event: ListingEvent): Promise<() => Promise<void>> {
  // A write recorded with no one listening would silently never reach the channel: refuse it instead.
  if (listenerModules.length === 0) throw new Error(`${event.type} recorded with no listener registered: run registerDomainListeners() first`);
  const listeners = await Promise.all(listenerModules.map((load) => load()));
  const followUps = (await Promise.all(listeners.map((listener) => listener(event, tx)))).filter((work): work is AfterCommit => work !== undefined);
  return () => Promise.all(followUps.map((work) => defer(event.type, work))).then(() => undefined);
}
