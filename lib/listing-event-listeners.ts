import { onListingEvent } from './events/listing-events.js';

/**
 * The composition root of listing events: who listens to them. Imported by the functions that
 * write listings, so the event module and the listeners never import each other.
 */
onListingEvent(() => import('./syndication/listing-listener.js').then((module) => module.syndicateListingEvent));
