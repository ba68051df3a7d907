import { endpoint, route } from '../../lib/service-route.js';
import { exportListings } from '../../lib/listings/csv/export.js';
import { countExport } from '../../lib/listings/csv/rate-limits.js';
import { ListingExportQuery } from '../../lib/listings/schema.js';

export default route({
  GET: endpoint('token', { query: ListingExportQuery }, exportListings, { rateLimit: countExport }),
});
