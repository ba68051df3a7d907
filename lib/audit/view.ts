import * as v from 'valibot';
import { IsoTimestamp, RecordId, RoleView } from '../http/common-views.js';
import { AUDIT_ENTITIES } from './record.js';

export const AuditEntryView = v.pipe(
  v.object({
    id: RecordId,
    at: IsoTimestamp,
    actor: v.object({ id: v.nullable(RecordId), role: v.nullable(RoleView), email: v.nullable(v.string()) }),
    action: v.pipe(v.string(), v.examples(['update'])),
    entity: v.picklist(AUDIT_ENTITIES),
    entityId: v.nullable(v.string()),
    changes: v.pipe(
      v.record(v.string(), v.object({ before: v.unknown(), after: v.unknown() })),
      v.examples([{ price: { before: 949.99, after: 899.99 }, status: { before: 'AVAILABLE', after: 'SOLD' } }]),
    ),
    requestId: v.nullable(v.string()),
    ip: v.nullable(v.string()),
  }),
  v.title('AuditEntry'),
);

export type AuditEntryView = v.InferOutput<typeof AuditEntryView>;
