import crypto from 'node:crypto';
import { sql } from 'drizzle-orm/sql/sql';
import { recordAudits, type AuditSource } from '../../audit/record.js';
import type { Executor } from '../../db/client.js';
import { listings } from '../../db/schema.js';
import { listingAuditEvent } from '../audit.js';
import type { ImportedFields, RowPlan } from './import-plan.js';

type CreatePlan = Extract<RowPlan, { kind: 'create' }>;
type UpdatePlan = Extract<RowPlan, { kind: 'update' }>;

/**
 * Rows per statement: each well within the parameters one may carry, and within the statement
 * time limit however busy the database is (every row written runs the listing triggers).
 */
const ROWS_PER_STATEMENT = 250;

/** The columns an import sets, with their types as one JSON record of an update batch is read back. */
const UPDATED_COLUMNS: Record<keyof ImportedFields, string> = {
  title: 'text',
  description: 'text',
  price: 'numeric',
  status: '"ListingStatus"',
  stockQuantity: 'integer',
  categoryId: 'uuid',
  agentId: 'uuid',
  attributes: 'jsonb',
  images: 'text[]',
};

function batches<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/**
 * Updates a batch of listings in one statement: the new values travel as one JSON array, read as
 * rows by jsonb_to_recordset and joined to the listings by id. Only listings whose fields change
 * are in a batch, so only they get a new `updatedAt`.
 */
async function updateBatch(tx: Executor, batch: readonly UpdatePlan[]): Promise<void> {
  const columns = Object.entries(UPDATED_COLUMNS);
  const records = batch.map((plan) => ({ id: plan.before.id, ...plan.after }));
  await tx.execute(sql`
    update ${listings} set
      ${sql.join(
        columns.map(([column]) => sql`${sql.identifier(column)} = given.${sql.identifier(column)}`),
        sql`, `,
      )},
      ${sql.identifier(listings.updatedAt.name)} = now()
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
      as given(id uuid, ${sql.raw(columns.map(([column, type]) => `"${column}" ${type}`).join(', '))})
    where ${listings.id} = given.id`);
}

/**
 * Writes the valid rows of an import set-wise, in the caller's transaction: new listings and
 * changed ones a few hundred per statement, and an audit entry for each listing
 * written (created, or with the fields that changed). A row that changes nothing writes nothing.
 * Answers the ids of the new listings, by row.
 */
export async function writeImport(tx: Executor, plans: readonly RowPlan[], source: AuditSource): Promise<Map<number, string>> {
  const creates = plans.filter((plan): plan is CreatePlan => plan.kind === 'create').map((plan) => ({ plan, id: crypto.randomUUID() }));
  const updates = plans.filter((plan): plan is UpdatePlan => plan.kind === 'update' && plan.changed);
  for (const batch of batches(creates, ROWS_PER_STATEMENT)) await tx.insert(listings).values(batch.map(({ plan, id }) => ({ id, ...plan.values })));
  for (const batch of batches(updates, ROWS_PER_STATEMENT)) await updateBatch(tx, batch);
  await recordAudits(tx, source, [
    ...creates.map(({ plan, id }) => listingAuditEvent('create', null, { id, ...plan.values })),
    ...updates.map((plan) => listingAuditEvent('update', plan.before, { id: plan.before.id, ...plan.after })),
  ]);
  return new Map(creates.map(({ plan, id }) => [plan.row, id]));
}
