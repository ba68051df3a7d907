import { verifyAgentCode } from '../../lib/auth/agent-code-handlers.js';
import { countAgentCodeCheck, countWrongAgentCode } from '../../lib/auth/agent-code-limits.js';
import { VerifyAgentCodeBody } from '../../lib/auth/schema.js';
import { AgentCodeCheckView } from '../../lib/auth/view.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  POST: endpoint({
    summary: 'Check an invitation code before signing up',
    access: 'public',
    schemas: { body: VerifyAgentCodeBody },
    answer: answers.data(AgentCodeCheckView),
    handle: verifyAgentCode,
    rateLimit: { beforeHandler: countAgentCodeCheck, inHandler: [countWrongAgentCode] },
    description: 'An unknown or unusable code answers 200 with `valid: false`. Shares one budget of 20 per 15 minutes per address with `register`; past 300 wrong codes shop-wide in 15 minutes a wrong code is 429, while a valid one is still answered.',
  }),
});
