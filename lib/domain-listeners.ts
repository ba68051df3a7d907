import { onListingEvent } from './events/listing-events.js';

let registered = false;

/**
 * The composition root of domain events: who listens to them. lib/service-route.ts runs it as
 * every function starts, so the event module and the listeners never import each other, and no
 * writing function can run without them (recordListingEvent() refuses to). A listener's module is
 * loaded on the first event it sees: a function that never writes never loads one. Runs once.
 */
export function registerDomainListeners(): void {
  if (registered) return;
  registered = true;
  onListingEvent(() => import('./syndication/listing-listener.js').then((module) => module.syndicateListingEvent));
}
