import { eq } from 'drizzle-orm/sql/expressions/conditions';
import { getDb } from '../db/client.js';
import { users } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';
import type { Reply } from '../http/reply.js';
import type { SecretBearingAnswer } from '../http/idempotency.js';
import { withPasswordPlace } from './bcrypt-worker.js';
import { passwordMatches } from './passwords.js';
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
 *
 * The password is left out of the key's fingerprint, which would otherwise keep for a day a digest
 * that a guess can be tested against; a replay that hands out a token checks the password against
 * the account's own hash instead (another password: the key was reused for another request).
 */
export const signUpReplay: SecretBearingAnswer = {
  unfingerprinted: ['password'],
  keep(reply) {
    if (!isSignUp(reply)) return reply;
    const { token: _token, ...data } = reply.body.data;
    return { ...reply, body: { ...reply.body, data } };
  },
  async replay(kept, { body, clientNetwork }) {
    if (!isSignUp(kept)) return kept;
    const db = await getDb();
    const [account] = await db
      .select({ id: users.id, email: users.email, role: users.role, password: users.password, tokensValidAfter: users.tokensValidAfter })
      .from(users)
      .where(eq(users.id, kept.body.data.user.id))
      .limit(1);
    if (!account || account.tokensValidAfter !== null) throw ApiError.conflict('The account this sign-up made has changed since: sign in instead');
    const { password } = body as { password: string };
    if (!(await withPasswordPlace(clientNetwork, false, (work) => passwordMatches(password, account.password, work)))) {
      throw ApiError.of('IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key reused with a different request');
    }
    return { ...kept, body: { ...kept.body, data: { ...kept.body.data, token: await signToken(account) } } };
  },
};
