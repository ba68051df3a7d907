import { getDb } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { ApiError } from '../http/api-error.js';
import { created, ok, type Reply } from '../http/reply.js';
import type { Input, RequestContext } from '../http/route.js';
import { enforceRateLimit } from '../rate-limit/enforce-rate-limit.js';
import { consumeAgentCode, recordAgentCodeUser } from './agent-code-queries.js';
import { compareAgainstDummy, hashPassword, passwordMatches } from './passwords.js';
import { userSummary } from './presenter.js';
import { findCredentials, insertAgent } from './queries.js';
import type { LoginBody, RegisterBody } from './schema.js';
import { signToken } from './tokens.js';

const FIFTEEN_MINUTES = 15 * 60;
/** D17: sign-ups per client address. */
const REGISTER_LIMIT = { limit: 20, windowSeconds: FIFTEEN_MINUTES };
/** D17: sign-in attempts per e-mail and client address. */
const LOGIN_LIMIT = { limit: 10, windowSeconds: FIFTEEN_MINUTES };

const INVALID_CREDENTIALS = 'Invalid email or password';

/** Sign-up with an agent code: the account is always an AGENT, and the code's use is taken with it. */
export async function register(
  { body }: Input<{ body: typeof RegisterBody }>,
  ctx: RequestContext<'public'>,
): Promise<Reply> {
  await enforceRateLimit({ key: `register:${ctx.clientIp}`, ...REGISTER_LIMIT });
  // Hashing is slow: done before the transaction so the code's row is never held locked meanwhile.
  const passwordHash = await hashPassword(body.password);
  const db = await getDb();
  const user = await inTransaction(db, async (tx) => {
    const code = await consumeAgentCode(tx, body.agentCode);
    if (!code) throw ApiError.badRequest('Invalid or expired agent code');
    const agent = await insertAgent(tx, { email: body.email, passwordHash, name: body.name, phone: body.phone });
    await recordAgentCodeUser(tx, code.id, agent.id);
    return agent;
  });
  return created({ user: userSummary(user), token: await signToken(user) });
}

export async function login({ body }: Input<{ body: typeof LoginBody }>, ctx: RequestContext<'public'>): Promise<Reply> {
  await enforceRateLimit({ key: `login:${body.email}:${ctx.clientIp}`, ...LOGIN_LIMIT });
  const db = await getDb();
  const account = await findCredentials(db, body.email);
  if (!account) {
    await compareAgainstDummy(body.password);
    throw ApiError.unauthorized(INVALID_CREDENTIALS);
  }
  if (!(await passwordMatches(body.password, account.password))) throw ApiError.unauthorized(INVALID_CREDENTIALS);
  return ok({ user: userSummary(account), token: await signToken(account) });
}
