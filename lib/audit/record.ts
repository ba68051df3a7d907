import { sql } from 'drizzle-orm/sql/sql';
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
  /**
   * For a write recorded as several steps (0 first): each is at a millisecond after the one
   * before, so the trail, newest first, lists them in the order they happened.
   */
  step?: number;
}

/** The row of one entry; `source` null is a write the service makes on its own: no actor, request or address. */
function entryOf(source: AuditSource | null, event: AuditEvent) {
  return {
    actorId: source?.user.id ?? null,
    actorRole: source?.user.role ?? null,
    actorEmail: source?.user.email ?? null,
    action: event.action,
    entity: event.entity,
    entityId: event.entityId,
    changes: event.changes,
    requestId: source?.requestId ?? null,
    ip: source?.clientIp ?? null,
    ...(event.step ? { at: sql`now() + make_interval(secs => ${event.step / 1000})` } : {}),
  };
}

/**
 * Adds the entry of a write; called in the write's transaction, so a write that fails leaves none.
 * `source` is null for a write the service makes on its own (the sweeper).
 */
export async function recordAudit(tx: Executor, source: AuditSource | null, event: AuditEvent): Promise<void> {
  await tx.insert(auditEntries).values(entryOf(source, event));
}

/** Entries per statement: well within the parameters one statement may carry. */
const ENTRIES_PER_STATEMENT = 1000;

/** Adds the entries of a bulk write, a thousand per statement, in the write's transaction. */
export async function recordAudits(tx: Executor, source: AuditSource | null, events: readonly AuditEvent[]): Promise<void> {
  for (let start = 0; start < events.length; start += ENTRIES_PER_STATEMENT) {
    await tx.insert(auditEntries).values(events.slice(start, start + ENTRIES_PER_STATEMENT).map((event) => entryOf(source, event)));
  }
}
