import { changesBetween } from '../audit/changes.js';
import { recordAudit, type AuditSource } from '../audit/record.js';
import type { Executor } from '../db/client.js';
import type { ListingRow } from './queries.js';

/** The fields of a listing its audit entries compare: what an administrator or agent sets. */
const AUDITED_FIELDS = [
  'title',
  'description',
  'price',
  'status',
  'stockQuantity',
  'categoryId',
  'agentId',
  'attributes',
  'images',
  'commissionPercent',
  'customTelegramCaption',
  'city',
  'neighborhood',
  'deletedAt',
] as const;

/**
 * The audit entry of a listing write: the fields that changed between the two versions. Moving a
 * listing to the trash is `trash`, bringing it back `restore`, removing it for good `delete` (or
 * `purge`, by the sweeper, whose source is null).
 */
export function recordListingAudit(
  tx: Executor,
  source: AuditSource | null,
  action: string,
  before: ListingRow | null,
  after: ListingRow | null,
  step?: number,
): Promise<void> {
  const entityId = (after ?? before)!.id;
  return recordAudit(tx, source, { action, entity: 'listing', entityId, changes: changesBetween(before, after, AUDITED_FIELDS), step });
}
