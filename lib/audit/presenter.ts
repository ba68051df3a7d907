import type { AuditRow } from './queries.js';
import type { AuditEntity } from './record.js';
import type { AuditEntryView } from './view.js';

/** An entry as answered: the actor as one object, the time as ISO text. */
export function auditEntryPresenter(row: AuditRow): AuditEntryView {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { id: row.actorId, role: row.actorRole, email: row.actorEmail },
    action: row.action,
    entity: row.entity as AuditEntity,
    entityId: row.entityId,
    changes: row.changes,
    requestId: row.requestId,
    ip: row.ip,
  };
}
