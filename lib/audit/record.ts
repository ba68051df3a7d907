import type { Executor } from '../db/client.js';
import { auditEntries, type Role } from '../db/schema.js';
import type { AuditChanges } from './changes.js';

/** What an audited write changed: one of these per entry. */
export const AUDIT_ENTITIES = ['listing', 'category', 'settings', 'agent-code', 'agent', 'syndication-config', 'user'] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/** Who made a write, and the request it came in (the route wrapper's request context has these). */
export interface AuditSource {
  user: { id: string; role: Role; email: string };
  requestId: string;
  clientIp: string;
}

export interface AuditEvent {
  /** `create`, `update`, `delete`, or the operation's own verb (`sell`, `revoke`, `seed`, ...). */
  action: string;
  entity: AuditEntity;
  entityId: string | null;
  changes: AuditChanges;
}

function entryOf(source: AuditSource, event: AuditEvent) {
  return {
    actorId: source.user.id,
    actorRole: source.user.role,
    actorEmail: source.user.email,
    action: event.action,
    entity: event.entity,
    entityId: event.entityId,
    changes: event.changes,
    requestId: source.requestId,
    ip: source.clientIp,
  };
}

/** Adds the entry of a write; called in the write's transaction, so a write that fails leaves none. */
export async function recordAudit(tx: Executor, source: AuditSource, event: AuditEvent): Promise<void> {
  await tx.insert(auditEntries).values(entryOf(source, event));
}

/** Entries per statement: well within the parameters one statement may carry. */
const ENTRIES_PER_STATEMENT = 1000;

/** Adds the entries of a bulk write, a thousand per statement, in the write's transaction. */
export async function recordAudits(tx: Executor, source: AuditSource, events: readonly AuditEvent[]): Promise<void> {
  for (let start = 0; start < events.length; start += ENTRIES_PER_STATEMENT) {
    await tx.insert(auditEntries).values(events.slice(start, start + ENTRIES_PER_STATEMENT).map((event) => entryOf(source, event)));
  }
}
