import { endpoint, route } from '../../lib/http/route.js';
import { suggest } from '../../lib/storefront/handlers.js';
import { SuggestQuery } from '../../lib/storefront/schema.js';

export default route({
  GET: endpoint('public', { query: SuggestQuery }, suggest, { edgeCache: { tags: () => ['listings', 'categories'] } }),
});
