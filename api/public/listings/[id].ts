import { IdParams } from '../../../lib/http/common-schemas.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { getPublicListing } from '../../../lib/storefront/handlers.js';

export default route({
  GET: endpoint('public', { params: IdParams }, getPublicListing),
});
