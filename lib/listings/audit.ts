import { changesBetween } from '../audit/changes.js';
import { recordAudit, type AuditEvent, type AuditSource } from '../audit/record.js';
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

type AuditedListing = Partial<Pick<ListingRow, (typeof AUDITED_FIELDS)[number]>> & Pick<ListingRow, 'id'>;

/** The audit event of a listing write: the fields that changed between the two versions. */
export function listingAuditEvent(action: string, before: AuditedListing | null, after: AuditedListing | null, step?: number): AuditEvent {
  const entityId = (after ?? before)!.id;
  return { action, entity: 'listing', entityId, changes: changesBetween(before, after, AUDITED_FIELDS), step };
}

/**
 * The audit entry of a listing write. Moving a listing to the trash is `trash`, bringing it back
 * `restore`, removing it for good `delete` (or `purge`, by the sweeper, whose source is null).
 */
export function recordListingAudit(
  tx: Executor,
  source: AuditSource | null,
  action: string,
  before: ListingRow | null,
  after: ListingRow | null,
  step?: number,
): Promise<void> {
  return recordAudit(tx, source, listingAuditEvent(action, before, after, step));
}
