import { registerDomainListeners } from '../../lib/domain-listeners.js';
import { endpoint, route } from '../../lib/service-route.js';
import { createListing, listListings } from '../../lib/listings/handlers.js';
import { ListingCreateBody, ListingListQuery, listingImagesForm } from '../../lib/listings/schema.js';

registerDomainListeners();

export default route({
  GET: endpoint('token', { query: ListingListQuery }, listListings),
  POST: endpoint('token', { body: ListingCreateBody, form: listingImagesForm }, createListing, { idempotent: true }),
});
