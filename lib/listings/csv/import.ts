import { getDb, type Database, type Executor } from '../../db/client.js';
import { inTransaction } from '../../db/transaction.js';
import { ApiError } from '../../http/api-error.js';
import { databaseErrorToApiError } from '../../http/database-errors.js';
import { categoryTag, invalidateEdgeCache } from '../../http/edge-cache.js';
import type { RequestContext } from '../../http/endpoint.js';
import type { Input } from '../../http/endpoint-input.js';
import { ok, type DataReply } from '../../http/reply.js';
import { removeImages } from '../../media/storage.js';
import type { ListingImportQuery } from '../schema.js';
import type { ImportReportView } from '../view.js';
import { loadImportContext } from './import-context.js';
import { importLayout, type ImportLayout } from './import-layout.js';
import { namedEmails, namedIds, planRow, type RowPlan } from './import-plan.js';
import { writeImport } from './import-writes.js';
import { IMPORT_MAX_ROWS, type listingsCsvFile } from './limits.js';
import { fileFault, readCsvFile, type FileRow } from './read-file.js';

type Caller = RequestContext<'token'>;

/**
 * Rows written per transaction. Each listing written updates the same kept counts (its category's,
 * its agent's, its attribute values'), and a row updated many times in one transaction is found
 * again through every version of it: a few hundred rows per transaction keep that short, and
 * keep the counts locked from other writers for a second at most, not for the whole file.
 */
const ROWS_PER_TRANSACTION = 500;

/** Two rows naming one listing would leave it as whichever came last: the file is refused, naming both. */
function assertDistinctIds(rows: readonly FileRow[], layout: ImportLayout): void {
  const index = layout.at.id;
  if (index === undefined) return;
  const firstRow = new Map<string, number>();
  const repeats: ApiError[] = [];
  for (const { row, cells } of rows) {
    const id = (cells[index] ?? '').trim().toLowerCase();
    if (id === '') continue;
    const first = firstRow.get(id);
    if (first === undefined) firstRow.set(id, row);
    else repeats.push(fileFault(row, 'id', `the same id as row ${first}`));
  }
  const [repeat] = repeats;
  if (repeat) throw ApiError.badRequest(repeat.message, repeats.flatMap((fault) => fault.details ?? []));
}

/** Every row's plan, checked against what the file names, read set-wise (and, when writing, locked). */
async function planRows(executor: Executor, rows: readonly FileRow[], layout: ImportLayout, caller: Caller, lock: boolean): Promise<RowPlan[]> {
  const emails = caller.user.role === 'SUPER_ADMIN' ? namedEmails(rows, layout) : [];
  const context = await loadImportContext(executor, [...new Set(namedIds(rows, layout))], emails, lock);
  return rows.map((row) => planRow(row, layout, caller.user, context));
}

function reportOf(plans: readonly RowPlan[], createdIds: ReadonlyMap<number, string>, layout: ImportLayout, dryRun: boolean): ImportReportView {
  const rows = plans.map((plan): ImportReportView['rows'][number] => {
    if (plan.kind === 'failed') return { row: plan.row, ...(plan.id === undefined ? {} : { id: plan.id }), status: 'failed', errors: plan.errors };
    if (plan.kind === 'update') return { row: plan.row, id: plan.before.id, status: 'updated' };
    const id = createdIds.get(plan.row);
    return { row: plan.row, ...(id === undefined ? {} : { id }), status: 'created' };
  });
  const count = (status: ImportReportView['rows'][number]['status']) => rows.filter((row) => row.status === status).length;
  return {
    dryRun,
    created: count('created'),
    updated: count('updated'),
    unchanged: plans.filter((plan) => plan.kind === 'update' && !plan.changed).length,
    failed: count('failed'),
    warnings: layout.warnings,
    rows,
  };
}

/**
 * What follows committed writes: the cached public answers they change are purged (the lists,
 * and each listing's category before and after), and the images updates left out are removed.
 */
async function afterWrites(plans: readonly RowPlan[]): Promise<void> {
  const written = plans.filter((plan): plan is Extract<RowPlan, { kind: 'create' | 'update' }> => plan.kind === 'create' || (plan.kind === 'update' && plan.changed));
  if (written.length === 0) return;
  const categories = written.flatMap((plan) => (plan.kind === 'create' ? [plan.values.categoryId] : [plan.before.categoryId, plan.after.categoryId]));
  await invalidateEdgeCache(['listings', ...categories.map(categoryTag)]);
  await removeImages(written.flatMap((plan) => (plan.kind === 'update' ? plan.droppedImages : [])));
}

/** A failure past the first transaction: the rows before `row` are written, the error says so. */
function stoppedAt(row: number, error: unknown): unknown {
  const cause = error instanceof ApiError ? error : databaseErrorToApiError(error);
  if (!cause) return error;
  return new ApiError(cause.status, `${cause.message} (the import stopped at row ${row}: the rows before it are written, the rest are not)`, cause.details, cause.headers, cause.code);
}

/**
 * Writes the file a batch of rows at a time, each batch in its own transaction: its listings are
 * locked, its rows checked against them and written. Answers every row's plan and the new ids;
 * should a batch fail, what the batches before it wrote is followed up all the same.
 */
async function writeRows(db: Database, rows: readonly FileRow[], layout: ImportLayout, caller: Caller): Promise<{ plans: RowPlan[]; createdIds: Map<number, string> }> {
  const plans: RowPlan[] = [];
  const createdIds = new Map<number, string>();
  for (let start = 0; start < rows.length; start += ROWS_PER_TRANSACTION) {
    const batch = rows.slice(start, start + ROWS_PER_TRANSACTION);
    const written = await inTransaction(db, async (tx) => {
      const planned = await planRows(tx, batch, layout, caller, true);
      return { planned, created: await writeImport(tx, planned, caller) };
    }).catch(async (error: unknown) => {
      await afterWrites(plans);
      throw start === 0 ? error : stoppedAt(batch[0]!.row, error);
    });
    plans.push(...written.planned);
    for (const [row, id] of written.created) createdIds.set(row, id);
  }
  return { plans, createdIds };
}

/**
 * `POST /api/listings/import`: a CSV file of listings, as an export writes it. Each row creates a
 * listing (no `id`) or updates the caller's listing it names; invalid rows are reported and
 * skipped, valid ones written set-wise, a few hundred per transaction, each with its audit entry.
 * A dry run checks the same way and writes nothing. Imported listings are not posted to the channel.
 */
export async function importListings({ query, file }: Input<{ query: typeof ListingImportQuery; file: typeof listingsCsvFile }>, caller: Caller): Promise<DataReply<ImportReportView>> {
  const csv = readCsvFile(file, IMPORT_MAX_ROWS);
  const layout = importLayout(csv.header);
  assertDistinctIds(csv.rows, layout);
  const db = await getDb();
  if (query.dryRun) return ok(reportOf(await planRows(db, csv.rows, layout, caller, false), new Map(), layout, true));
  const { plans, createdIds } = await writeRows(db, csv.rows, layout, caller);
  await afterWrites(plans);
  return ok(reportOf(plans, createdIds, layout, false));
}
