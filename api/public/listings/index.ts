import { endpoint, route } from '../../../lib/service-route.js';
import { listPublicListings } from '../../../lib/storefront/handlers.js';
import { PublicListingsQuery } from '../../../lib/storefront/schema.js';

export default route({
  GET: endpoint('public', { query: PublicListingsQuery }, listPublicListings, { edgeCache: { tags: () => ['listings', 'categories'] } }),
});
