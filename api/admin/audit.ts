import { listAudit } from '../../lib/audit/handlers.js';
import { AuditQuery } from '../../lib/audit/schema.js';
import { AuditEntryView } from '../../lib/audit/view.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'The audit trail: who changed what, newest first',
    access: 'admin',
    schemas: { query: AuditQuery },
    answer: answers.pages(AuditEntryView),
    handle: listAudit,
    description:
      'One entry per write by an administrator or agent (listings and their sales, categories and their seeding, settings, agent codes, agents, channel configs, profiles), made in the write\'s own transaction, so a refused write leaves none. ' +
      'Each entry is `{ id, at, actor: { id, role, email }, action, entity, entityId, changes, requestId, ip }`: `action` is `create`, `update`, `delete` or the operation\'s own verb (`sell`, `revoke`, `seed`; for a listing also `trash`, `restore`, and `purge` when the sweeper deletes it for good, with no actor); `changes` holds only the fields that changed, as `{ before, after }`, and a secret (bot token, password, agent code) only as `"***"`. ' +
      '`requestId` is the `X-Request-Id` of the answer to the write. Filters: `entity`, `entityId`, `actorId`, `action`, and `from`/`to` (ISO 8601, inclusive). Entries older than `AUDIT_RETENTION_DAYS` (default 365) are removed by the sweeper.',
  }),
});
