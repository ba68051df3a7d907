import { createAgentCode, listCodes } from '../../../lib/auth/agent-code-handlers.js';
import { AdminListQuery, AgentCodeCreateBody } from '../../../lib/auth/schema.js';
import { AgentCodeView, CreatedAgentCodeView } from '../../../lib/auth/view.js';
import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'List invitation codes',
    access: 'admin',
    schemas: { query: AdminListQuery },
    answer: answers.pages(AgentCodeView),
    handle: listCodes,
  }),
  POST: endpoint({
    summary: 'Create an invitation code',
    access: 'admin',
    schemas: { body: AgentCodeCreateBody },
    answer: answers.data(CreatedAgentCodeView),
    handle: createAgentCode,
    successStatus: 201,
    idempotent: true,
  }),
});
