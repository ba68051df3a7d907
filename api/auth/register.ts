import { countAgentCodeCheck, countWrongAgentCode } from '../../lib/auth/agent-code-limits.js';
import { register } from '../../lib/auth/handlers.js';
import { RegisterBody } from '../../lib/auth/schema.js';
import { signUpReplay } from '../../lib/auth/sign-up-replay.js';
import { SignUpView } from '../../lib/auth/view.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  POST: endpoint({
    summary: 'Register an agent with an invitation code',
    access: 'public',
    schemas: { body: RegisterBody },
    answer: answers.data(SignUpView),
    handle: register,
    successStatus: 201,
    errors: ['INVALID_AGENT_CODE', 'ALREADY_EXISTS', 'CONFLICT', 'PASSWORD_CHECKS_BUSY'],
    idempotent: signUpReplay,
    rateLimit: { beforeHandler: countAgentCodeCheck, inHandler: [countWrongAgentCode] },
    description: 'An unusable code is 400 `Invalid or expired agent code`; an e-mail already registered is 409. Sign-ups and code checks (`verify-agent-code`) share one budget of 20 per 15 minutes per address (429 beyond, counted before the Idempotency-Key is taken); a wrong code also counts towards the shop-wide ceiling of 300 wrong codes per 15 minutes, past which wrong codes are 429 while a valid code is still accepted. Under an Idempotency-Key the answer is kept without its token: a replay with the same password answers a freshly issued one (422 with another password, 409 once the account has changed its password since). 503 `PASSWORD_CHECKS_BUSY` with `Retry-After` when every place for password checks is taken.',
  }),
});
