import { changesBetween } from '../audit/changes.js';
import { recordAudit, type AuditSource } from '../audit/record.js';
import type { Executor } from '../db/client.js';
import type { CategoryRow } from './queries.js';

const AUDITED_FIELDS = ['name', 'displayName', 'icon', 'schemaRules'] as const;

/** The audit entry of a category write: the fields that changed between the two versions. */
export function recordCategoryAudit(tx: Executor, source: AuditSource, action: string, before: CategoryRow | null, after: CategoryRow | null): Promise<void> {
  const entityId = (after ?? before)!.id;
  return recordAudit(tx, source, { action, entity: 'category', entityId, changes: changesBetween(before, after, AUDITED_FIELDS) });
}
