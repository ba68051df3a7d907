import { registerDomainListeners } from '../../lib/domain-listeners.js';
import { IdParams } from '../../lib/http/common-schemas.js';
import { DeletedView } from '../../lib/http/common-views.js';
import { answers } from '../../lib/http/success-answer.js';
import { getListing, updateListing } from '../../lib/listings/handlers.js';
import { ListingDeleteQuery, listingImagesForm, ListingUpdateBody } from '../../lib/listings/schema.js';
import { deleteListing } from '../../lib/listings/trash.js';
import { ListingView } from '../../lib/listings/view.js';
import { endpoint, route } from '../../lib/service-route.js';

registerDomainListeners();

export default route({
  GET: endpoint({
    summary: 'One listing',
    access: 'token',
    schemas: { params: IdParams },
    answer: answers.data(ListingView),
    handle: getListing,
  }),
  PATCH: endpoint({
    summary: 'Update a listing; new images are appended',
    access: 'token',
    schemas: { params: IdParams, body: ListingUpdateBody, form: listingImagesForm },
    answer: answers.data(ListingView),
    handle: updateListing,
    errors: ['CONFLICT', 'NOT_CONFIGURED', 'ATTRIBUTES_INVALID', 'UPSTREAM_FAILED'],
    description: '`existingImages` (a JSON array) names the listing\'s images to keep, in order, each as answered (an absolute URL) or as stored (`/uploads/<file>`, or the image host\'s URL); an image the listing does not have is 400. New files, then `imageRefs`, are appended after them. Setting `status` to SOLD takes one from stock.',
  }),
  DELETE: endpoint({
    summary: 'Move a listing to the trash, or (`permanent=true`) delete it and its images for good',
    access: 'token',
    schemas: { params: IdParams, query: ListingDeleteQuery },
    answer: answers.data(DeletedView),
    handle: deleteListing,
    errors: ['CONFLICT'],
    description:
      'Without `permanent`, the listing goes to the trash: it leaves the storefront, every list, every count and the search at once, and its channel posts are deleted; its images are kept, so `POST /api/listings/:id/restore` brings it back as it was. A listing already in the trash is 404. ' +
      'The sweeper deletes a listing for good once it has been in the trash `TRASH_RETENTION_DAYS` (default 30). ' +
      'With `permanent=true` the listing and its images are deleted for good: by an administrator (a listing not in the trash passes through it first), or by its agent once it is in the trash (409 before). Another agent\'s listing is 404 then.',
  }),
});
