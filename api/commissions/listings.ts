import { listListingCommissions } from '../../lib/commissions/handlers.js';
import { CommissionListingsQuery } from '../../lib/commissions/schema.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint('admin', { query: CommissionListingsQuery }, listListingCommissions),
});
