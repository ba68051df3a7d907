import { eq } from 'drizzle-orm/sql/expressions/conditions';
import { getDb } from '../db/client.js';
import { users } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';
import type { Reply } from '../http/reply.js';
import type { SecretBearingAnswer } from '../http/idempotency.js';
import { signToken } from './tokens.js';

const CREATED = 201;

interface SignUpAnswer {
  success: true;
  data: { user: { id: string }; token?: string };
}

const isSignUp = (reply: Reply): reply is Reply & { body: SignUpAnswer } => reply.status === CREATED;

/**
 * A sign-up answers the new account's token. Under an Idempotency-Key it is kept without the token,
 * which would otherwise lie in the database as a working credential for a day; a replay gets a
 * freshly issued one, as long as the account is still the one the sign-up made: once it is gone or
 * its password has changed (which ends its sessions), a replay cannot sign in for it.
 */
export const signUpReplay: SecretBearingAnswer = {
  keep(reply) {
    if (!isSignUp(reply)) return reply;
    const { token: _token, ...data } = reply.body.data;
    return { ...reply, body: { ...reply.body, data } };
  },
  async replay(kept) {
    if (!isSignUp(kept)) return kept;
    const db = await getDb();
    const [account] = await db
      .select({ id: users.id, email: users.email, role: users.role, tokensValidAfter: users.tokensValidAfter })
      .from(users)
      .where(eq(users.id, kept.body.data.user.id))
      .limit(1);
    if (!account || account.tokensValidAfter !== null) throw ApiError.conflict('The account this sign-up made has changed since: sign in instead');
    return { ...kept, body: { ...kept.body, data: { ...kept.body.data, token: await signToken(account) } } };
  },
};
