import { endpoint, route } from '../../lib/service-route.js';
import { getFilterOptions } from '../../lib/storefront/handlers.js';
import { FilterOptionsQuery } from '../../lib/storefront/schema.js';

export default route({
  GET: endpoint('public', { query: FilterOptionsQuery }, getFilterOptions, { edgeCache: { tags: () => ['listings', 'categories'] } }),
});
