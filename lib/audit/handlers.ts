import { config } from '../config.js';
import { getDb } from '../db/client.js';
import { paginated, pagination, type PageReply } from '../http/reply.js';
import type { Input } from '../http/endpoint-input.js';
import { auditEntryPresenter } from './presenter.js';
import { listAuditEntries, removeAuditEntriesOlderThan } from './queries.js';
import type { AuditQuery } from './schema.js';
import type { AuditEntryView } from './view.js';

/** `GET /api/admin/audit`: the trail, newest first, filtered and paged. */
export async function listAudit({ query }: Input<{ query: typeof AuditQuery }>): Promise<PageReply<AuditEntryView>> {
  const { rows, total } = await listAuditEntries(await getDb(), query);
  return paginated(rows.map(auditEntryPresenter), pagination(query.page, query.limit, total));
}

/** The sweeper's part: entries past `AUDIT_RETENTION_DAYS` go. */
export async function removeExpiredAuditEntries(): Promise<number> {
  return removeAuditEntriesOlderThan(await getDb(), config().auditRetentionDays);
}
