import { verifyAgentCode } from '../../lib/auth/agent-code-handlers.js';
import { countAgentCodeCheck } from '../../lib/auth/agent-code-limits.js';
import { VerifyAgentCodeBody } from '../../lib/auth/schema.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  POST: endpoint('public', { body: VerifyAgentCodeBody }, verifyAgentCode, { rateLimit: countAgentCodeCheck }),
});
