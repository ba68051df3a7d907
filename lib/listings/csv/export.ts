import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { SQL } from 'drizzle-orm/sql/sql';
import { getDb, type Executor } from '../../db/client.js';
import type { ListingAttributes } from '../../db/schema.js';
import type { RequestContext } from '../../http/endpoint.js';
import { streamed, type StreamedReply } from '../../http/reply.js';
import { publicImageUrl } from '../../media/public-image-url.js';
import { listingsMatching } from '../queries.js';
import type { ListingExportQuery } from '../schema.js';
import { protectedCell } from './cells.js';
import { attributeFieldsOf, exportHeader, IMAGE_SEPARATOR } from './columns.js';
import { categoriesOfMatches, exportPage, type ExportRow, type PageEnd } from './export-rows.js';

/** Listings read per statement: a page in memory at a time, whatever the list's length. */
const PAGE_SIZE = 1000;

function attributeText(value: ListingAttributes[string] | undefined): string {
  return value === undefined ? '' : String(value);
}

function cellsOf(row: ExportRow, attributeFields: readonly string[]): string[] {
  return [
    row.id,
    row.title,
    row.description,
    row.price,
    String(row.stockQuantity),
    row.status,
    row.category,
    ...attributeFields.map((field) => attributeText(row.attributes[field])),
    row.images.map(publicImageUrl).join(IMAGE_SEPARATOR),
    row.createdAt.toISOString(),
  ].map(protectedCell);
}

/** The header, then every matching listing, page by page: a page is read only once the reader has taken the last. */
async function* exportRecords(executor: Executor, matching: SQL, attributeFields: readonly string[]): AsyncGenerator<string[]> {
  yield exportHeader(attributeFields).map(protectedCell);
  let after: PageEnd | undefined;
  for (;;) {
    const page = await exportPage(executor, matching, after, PAGE_SIZE);
    for (const row of page) yield cellsOf(row, attributeFields);
    const last = page.at(-1);
    if (!last || page.length < PAGE_SIZE) return;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/**
 * The file as a stream (RFC 4180: CRLF between records, quoted where a cell holds a comma, quote or
 * line break; UTF-8 with a byte order mark, which spreadsheets need to read it as UTF-8). Records
 * are pulled as the client takes them. A failure of either stream ends the other, and the answer
 * is cut where it is written (so the callback has nothing left to do).
 */
function listingsCsv(executor: Executor, matching: SQL, attributeFields: readonly string[]): Readable {
  const records = Readable.from(exportRecords(executor, matching, attributeFields));
  return pipeline(records, stringify({ bom: true, record_delimiter: 'windows' }), () => undefined);
}

/**
 * `GET /api/listings/export`: the caller's list (an agent's own listings, an administrator's all)
 * as CSV, with the list's filters: the listings in the shop, or with `trashed=true` the trash.
 */
export async function exportListings({ query }: { query: ListingExportQuery }, { user }: RequestContext<'token'>): Promise<StreamedReply> {
  const db = await getDb();
  const matching = listingsMatching(query, user.role === 'SUPER_ADMIN' ? undefined : user.id);
  const attributeFields = attributeFieldsOf(await categoriesOfMatches(db, matching));
  const day = new Date().toISOString().slice(0, 10);
  return streamed(listingsCsv(db, matching, attributeFields), 'text/csv; charset=utf-8', {
    'Content-Disposition': `attachment; filename="listings-${query.trashed ? 'trash-' : ''}${day}.csv"`,
  });
}
