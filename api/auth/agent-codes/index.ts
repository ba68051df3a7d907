import { createAgentCode, listCodes } from '../../../lib/auth/agent-code-handlers.js';
import { AdminListQuery, AgentCodeCreateBody } from '../../../lib/auth/schema.js';
import { endpoint, route } from '../../../lib/service-route.js';

export default route({
  GET: endpoint('admin', { query: AdminListQuery }, listCodes),
  POST: endpoint('admin', { body: AgentCodeCreateBody }, createAgentCode, { idempotent: true }),
});
