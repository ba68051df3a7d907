import { listAgentAccounts } from '../../../lib/auth/agent-handlers.js';
import { AdminListQuery } from '../../../lib/auth/schema.js';
import { AgentView } from '../../../lib/auth/view.js';
import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'List registered agents',
    access: 'admin',
    schemas: { query: AdminListQuery },
    answer: answers.pages(AgentView),
    handle: listAgentAccounts,
  }),
});
