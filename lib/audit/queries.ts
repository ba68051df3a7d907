import { and, eq, gte, inArray, lt, lte } from 'drizzle-orm/sql/expressions/conditions';
import { desc } from 'drizzle-orm/sql/expressions/select';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import { boundedTotal, type MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { auditEntries } from '../db/schema.js';
import { offsetOf } from '../http/common-schemas.js';
import type { AuditFilter } from './schema.js';

export type AuditRow = typeof auditEntries.$inferSelect;

function conditionsOf(filter: AuditFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.entity) conditions.push(eq(auditEntries.entity, filter.entity));
  if (filter.entityId) conditions.push(eq(auditEntries.entityId, filter.entityId));
  if (filter.actorId) conditions.push(eq(auditEntries.actorId, filter.actorId));
  if (filter.action) conditions.push(eq(auditEntries.action, filter.action));
  if (filter.from) conditions.push(gte(auditEntries.at, filter.from));
  if (filter.to) conditions.push(lte(auditEntries.at, filter.to));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** A page of entries, newest first, with the number matching (counted up to a bound, past which the total is a flagged estimate). */
export async function listAuditEntries(executor: Executor, filter: AuditFilter): Promise<{ rows: AuditRow[]; total: MatchedTotal }> {
  const where = conditionsOf(filter);
  const [rows, total] = await Promise.all([
    executor
      .select()
      .from(auditEntries)
      .where(where)
      .orderBy(desc(auditEntries.at), desc(auditEntries.id))
      .limit(filter.limit)
      .offset(offsetOf(filter)),
    boundedTotal(executor, executor.select({ id: auditEntries.id }).from(auditEntries).where(where)),
  ]);
  return { rows, total };
}

/** Entries removed per statement, so one sweep never holds a long lock or a long statement. */
const REMOVAL_BATCH = 5_000;

/** Removes the entries older than `retentionDays`, oldest first, batch by batch; answers how many went. */
export async function removeAuditEntriesOlderThan(executor: Executor, retentionDays: number): Promise<number> {
  let removed = 0;
  for (;;) {
    const expired = executor
      .select({ id: auditEntries.id })
      .from(auditEntries)
      .where(lt(auditEntries.at, sql`now() - make_interval(days => ${retentionDays})`))
      .orderBy(auditEntries.at)
      .limit(REMOVAL_BATCH);
    const rows = await executor.delete(auditEntries).where(inArray(auditEntries.id, expired)).returning({ id: auditEntries.id });
    removed += rows.length;
    if (rows.length < REMOVAL_BATCH) return removed;
  }
}
