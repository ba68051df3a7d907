import { answers } from '../../lib/http/success-answer.js';
import { importListings } from '../../lib/listings/csv/import.js';
import { IMPORT_MAX_ROWS, listingsCsvFile } from '../../lib/listings/csv/limits.js';
import { BULK_CALLS_PER_HOUR, countImport } from '../../lib/listings/csv/rate-limits.js';
import { ListingImportQuery } from '../../lib/listings/schema.js';
import { ImportReportView } from '../../lib/listings/view.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  POST: endpoint({
    summary: 'Import listings from a CSV file, or check it first (`dryRun=true`)',
    access: 'token',
    schemas: { query: ListingImportQuery, file: listingsCsvFile },
    answer: answers.data(ImportReportView),
    handle: importListings,
    rateLimit: { beforeHandler: countImport },
    description:
      `The file an export writes, as the body (\`Content-Type: text/csv\`) or as the multipart field \`file\`: at most 4 MiB and ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows (413 beyond, writing nothing). A row without \`id\` creates a listing; a row with the \`id\` of a listing the caller manages updates it (another agent's listing fails the row: \`Not authorized\`; a listing in the trash fails it too, and stays there until \`POST /api/listings/:id/restore\` brings it back). An agent's rows are their own; an administrator's \`agentEmail\` column names the owner (required to create). ` +
      'A file that changes only some fields may carry `id` and those columns; to create, `title`, `price` and `category` (display name, or code) are needed. An empty cell leaves a field as it is (a new listing gets the default), except `description` and `attr:` columns, where it means empty. `images` may only name, in order, the listing\'s own images (those left out are removed); `createdAt` is not read. ' +
      'The answer is `data: { dryRun, created, updated, unchanged, failed, warnings, rows }`: each row by `row`, the line of the file it starts on (the header is line 1), with its `status` and, when failed, its `errors` (`field` is the column, `message` the words of the single-listing endpoints). Unknown columns are `warnings`, not failures. ' +
      'Valid rows are written 500 at a time, each 500 in one transaction (should the database fail part-way, the error names the row the import stopped at: the rows before it are written); failed rows are skipped. A row that changes nothing is reported `updated` and counted `unchanged`, and writes nothing (no `updatedAt`, no audit entry); each listing written gets its audit entry. Imported listings are not posted to the channel. ' +
      `400 naming the row and column for a file that is not UTF-8 or not CSV (unbalanced quotes), without a header or the columns it needs, naming a column twice, or naming one id on two rows. ${BULK_CALLS_PER_HOUR} imports an hour per caller, dry runs included (429 beyond).`,
  }),
});
