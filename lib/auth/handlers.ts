import { getDb } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { ApiError } from '../http/api-error.js';
import { created, ok, type Reply } from '../http/reply.js';
import type { Input, RequestContext } from '../http/route.js';
import { enforceRateLimit, enforceRateLimits } from '../rate-limit/enforce-rate-limit.js';
import { consumeAgentCode, findUsableAgentCode, recordAgentCodeUser } from './agent-code-queries.js';
import { hashPassword, passwordMatches } from './passwords.js';
import { userSummary } from './presenter.js';
import { findCredentials, insertAgent } from './queries.js';
import type { LoginBody, RegisterBody } from './schema.js';
import { withSignInSlot } from './sign-in-slots.js';
import { signToken } from './tokens.js';

const FIFTEEN_MINUTES = 15 * 60;
/** D17: sign-ups per client address. */
const REGISTER_LIMIT = { limit: 20, windowSeconds: FIFTEEN_MINUTES };
/** D17: sign-in attempts per e-mail and client address. */
const LOGIN_LIMIT = { limit: 10, windowSeconds: FIFTEEN_MINUTES };
/** D40: sign-in attempts per account, whatever the address. */
const LOGIN_ACCOUNT_LIMIT = { limit: 50, windowSeconds: FIFTEEN_MINUTES };
/** Sign-in attempts per address across every e-mail, so fresh e-mails do not buy fresh guesses. */
const LOGIN_ADDRESS_LIMIT = { limit: 30, windowSeconds: FIFTEEN_MINUTES };

const INVALID_CREDENTIALS = 'Invalid email or password';
const INVALID_AGENT_CODE = 'Invalid or expired agent code';

/**
 * Sign-up with an agent code: the account is always an AGENT, and the code's use is taken with it.
 * Everything cheap is checked before the password is hashed; the code and the address are checked
 * again, atomically, when the account is written.
 */
export async function register(
  { body }: Input<{ body: typeof RegisterBody }>,
  ctx: RequestContext<'public'>,
): Promise<Reply> {
  await enforceRateLimit({ key: `register:${ctx.clientIp}`, ...REGISTER_LIMIT });
  const db = await getDb();
  if (!(await findUsableAgentCode(db, body.agentCode))) throw ApiError.badRequest(INVALID_AGENT_CODE);
  if (await findCredentials(db, body.email)) throw ApiError.duplicate('email');
  // Hashing is slow: done before the transaction so the code's row is never held locked meanwhile.
  const passwordHash = await hashPassword(body.password);
  const user = await inTransaction(db, async (tx) => {
    const code = await consumeAgentCode(tx, body.agentCode);
    if (!code) throw ApiError.badRequest(INVALID_AGENT_CODE);
    const agent = await insertAgent(tx, { email: body.email, passwordHash, name: body.name, phone: body.phone });
    await recordAgentCodeUser(tx, code.id, agent.id);
    return agent;
  });
  return created({ user: userSummary(user), token: await signToken(user) });
}

/**
 * Every limit is counted, in one statement, before the one slow step, the password check (D2: the
 * same for unknown e-mails). The address's own ceilings come first: the sign-ins it has under way
 * in this instance (no statement at all when refused), then its attempts, so a flood from one
 * address is refused before it writes a counter for each e-mail it names.
 */
export function login({ body }: Input<{ body: typeof LoginBody }>, ctx: RequestContext<'public'>): Promise<Reply> {
  return withSignInSlot(ctx.clientIp, async () => {
    await enforceRateLimits(
      { key: `login-address:${ctx.clientIp}`, ...LOGIN_ADDRESS_LIMIT },
      { key: `login:${body.email}:${ctx.clientIp}`, ...LOGIN_LIMIT },
      { key: `login-account:${body.email}`, ...LOGIN_ACCOUNT_LIMIT },
    );
    const account = await findCredentials(await getDb(), body.email);
    if (!(await passwordMatches(body.password, account?.password)) || !account) throw ApiError.unauthorized(INVALID_CREDENTIALS);
    return ok({ user: userSummary(account), token: await signToken(account) });
  });
}
