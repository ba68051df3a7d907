import { registerDomainListeners } from '../../lib/domain-listeners.js';
import { answers } from '../../lib/http/success-answer.js';
import { createListing, listListings } from '../../lib/listings/handlers.js';
import { ListingCreateBody, listingImagesForm, ListingListQuery } from '../../lib/listings/schema.js';
import { ListingView } from '../../lib/listings/view.js';
import { endpoint, route } from '../../lib/service-route.js';

registerDomainListeners();

export default route({
  GET: endpoint({
    summary: 'List listings (an agent sees only their own)',
    access: 'token',
    schemas: { query: ListingListQuery },
    answer: answers.pages(ListingView),
    handle: listListings,
    description: 'Listings in the trash are left out. `trashed=true` lists the trash instead (an agent\'s own listings in it, an administrator\'s all), newest deletion first, each with `deletedAt`; the other filters and paging apply.',
  }),
  POST: endpoint({
    summary: 'Create a listing, with up to 10 images',
    access: 'token',
    schemas: { body: ListingCreateBody, form: listingImagesForm },
    answer: answers.data(ListingView),
    handle: createListing,
    successStatus: 201,
    errors: ['FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'NOT_CONFIGURED', 'ATTRIBUTES_INVALID', 'UPSTREAM_FAILED'],
    idempotent: true,
    description: 'An agent\'s listing is their own; an administrator names the agent in `agentId`. Images are resized to fit within 1200 x 2400 px and stored as WebP; an image with a side over 12,000 px or sides more than 1:8 apart is 400 `UNSUPPORTED_IMAGE`. `attributes` must satisfy the category\'s `schemaRules` (else 422). `imageRefs` (a JSON array of the image host\'s upload responses) adds images uploaded directly with `POST /api/uploads/signature`; files and refs together count against the 10-image limit.',
  }),
});
