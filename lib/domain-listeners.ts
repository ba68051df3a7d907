import { onListingEvent } from './events/listing-events.js';

let registered = false;

/**
 * The composition root of domain events: who listens to them, so the event module and the
 * listeners never import each other. Each function that writes listings runs it as it starts
 * (its `api/` file): a function's bundle carries what its code can reach, so a function that only
 * reads must not reach the listeners (they bring the bot client). No writing function can run
 * without them: recordListingEvent() refuses to. Runs once.
 */
export function registerDomainListeners(): void {
  if (registered) return;
  registered = true;
  onListingEvent(() => import('./syndication/listing-listener.js').then((module) => module.syndicateListingEvent));
}
