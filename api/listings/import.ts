import { endpoint, route } from '../../lib/service-route.js';
import { importListings } from '../../lib/listings/csv/import.js';
import { listingsCsvFile } from '../../lib/listings/csv/limits.js';
import { countImport } from '../../lib/listings/csv/rate-limits.js';
import { ListingImportQuery } from '../../lib/listings/schema.js';

export default route({
  POST: endpoint('token', { query: ListingImportQuery, file: listingsCsvFile }, importListings, { rateLimit: countImport }),
});
