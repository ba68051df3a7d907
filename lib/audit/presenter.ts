import type { AuditRow } from './queries.js';

/** An entry as answered: the actor as one object, the time as ISO text. */
export function auditEntryPresenter(row: AuditRow) {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { id: row.actorId, role: row.actorRole, email: row.actorEmail },
    action: row.action,
    entity: row.entity,
    entityId: row.entityId,
    changes: row.changes,
    requestId: row.requestId,
    ip: row.ip,
  };
}
