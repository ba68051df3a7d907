import { listAgentAccounts } from '../../../lib/auth/agent-handlers.js';
import { AdminListQuery } from '../../../lib/auth/schema.js';
import { endpoint, route } from '../../../lib/service-route.js';

export default route({
  GET: endpoint('admin', { query: AdminListQuery }, listAgentAccounts),
});
