import { answers } from '../../lib/http/success-answer.js';
import { exportListings } from '../../lib/listings/csv/export.js';
import { BULK_CALLS_PER_HOUR, countExport } from '../../lib/listings/csv/rate-limits.js';
import { ListingExportQuery } from '../../lib/listings/schema.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'Export the list as a CSV file (an agent: their own listings)',
    access: 'token',
    schemas: { query: ListingExportQuery },
    answer: answers.csv,
    handle: exportListings,
    rateLimit: { beforeHandler: countExport },
    description:
      'The whole list, newest first, with the filters of `GET /api/listings` (same names; no pages): the listings out of the trash, or with `trashed=true` those in it. One row per listing: `id`, `title`, `description`, `price`, `stockQuantity`, `status`, `category` (its display name), one `attr:<field>` column per field of the rules of the categories in the file (each category\'s fields in its order, categories by display name), `images` (absolute URLs joined by ` | `) and `createdAt`. ' +
      'RFC 4180 (CRLF between rows, quotes where a cell holds a comma, quote or line break), UTF-8 with a byte order mark. A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is written behind a single quote, so a spreadsheet shows it as text; the import takes that quote off again. ' +
      `Streamed as it is read, in constant memory at any size. ${BULK_CALLS_PER_HOUR} exports an hour per caller (429 beyond). See docs/bulk-data.md.`,
  }),
});
