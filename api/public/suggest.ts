import { endpoint, route } from '../../lib/service-route.js';
import { suggest } from '../../lib/storefront/handlers.js';
import { SuggestQuery } from '../../lib/storefront/schema.js';

export default route({
  GET: endpoint('public', { query: SuggestQuery }, suggest, { edgeCache: { tags: () => ['listings', 'categories'] } }),
});
