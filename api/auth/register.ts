import { countAgentCodeCheck } from '../../lib/auth/agent-code-limits.js';
import { register } from '../../lib/auth/handlers.js';
import { RegisterBody } from '../../lib/auth/schema.js';
import { signUpReplay } from '../../lib/auth/sign-up-replay.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  POST: endpoint('public', { body: RegisterBody }, register, { idempotent: signUpReplay, rateLimit: countAgentCodeCheck }),
});
