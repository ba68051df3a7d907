import { listAudit } from '../../lib/audit/handlers.js';
import { AuditQuery } from '../../lib/audit/schema.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint('admin', { query: AuditQuery }, listAudit),
});
