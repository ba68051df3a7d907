import { IdParams } from '../../../lib/http/common-schemas.js';
import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { getPublicListing } from '../../../lib/storefront/handlers.js';
import { PublicListingDetailView } from '../../../lib/storefront/view.js';

export default route({
  GET: endpoint({
    summary: 'A storefront listing with its agent\'s contact links',
    access: 'public',
    schemas: { params: IdParams },
    answer: answers.data(PublicListingDetailView),
    handle: getPublicListing,
    description: 'The item as the list shows it (`hero`, `gallery`, `heroPhoto`, `photos`), with its agent.',
  }),
});
