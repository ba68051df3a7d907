import crypto from 'node:crypto';
import { getDb } from '../db/client.js';
import { ApiError } from '../http/api-error.js';
import { defer } from '../http/deferred-work.js';
import { message, type MessageReply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import type { Input } from '../http/endpoint-input.js';
import { sendMail } from '../mail/send-mail.js';
import { enforceRateLimits } from '../rate-limit/enforce-rate-limit.js';
import { keyedDigest } from '../server-secret.js';
import { withPasswordPlace } from './bcrypt-worker.js';
import { hashPassword } from './passwords.js';
import { checkResetCode, replacePasswordWithResetCode, RESET_CODE_LIFETIME_MINUTES, storeResetCode } from './queries.js';
import type { ForgotPasswordBody, ResetPasswordBody } from './schema.js';

const ONE_HOUR = 60 * 60;
/**
 * Limits reset e-mails per e-mail and address, and per e-mail whatever the address: strangers
 * can use up only their own allowance, not the owner's.
 */
const FORGOT_PASSWORD_LIMIT = { limit: 5, windowSeconds: ONE_HOUR };
const FORGOT_PASSWORD_ACCOUNT_LIMIT = { limit: 20, windowSeconds: ONE_HOUR };
/**
 * Requests per address across every e-mail, counted first: one address naming fresh e-mails adds
 * at most this many pairs of counters an hour, and a refused request adds none.
 */
const FORGOT_PASSWORD_ADDRESS_LIMIT = { limit: 30, windowSeconds: ONE_HOUR };

const INVALID_RESET_CODE = 'Invalid or expired reset code';

/**
 * Only a keyed digest is stored: six digits are a million guesses, which a bare hash would give up
 * in a second from a copy of the database; without the server's key the digest tests nothing.
 */
function hashResetCode(code: string): string {
  return keyedDigest('reset codes', code);
}

async function sendResetCode(email: string): Promise<void> {
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
  const account = await storeResetCode(await getDb(), email, hashResetCode(code));
  if (!account) return;
  await sendMail({
    to: account.email,
    subject: 'Your password reset code',
    text: [
      `Hello ${account.name},`,
      '',
      `Your password reset code is ${code}. It expires in ${RESET_CODE_LIFETIME_MINUTES} minutes.`,
      '',
      'If you did not ask to reset your password, you can ignore this e-mail.',
    ].join('\n'),
  });
}

/** The reset e-mail endpoint's rate limits, per address, per e-mail and address, and per e-mail, counted before a code is made. */
export function limitResetRequests({ body }: Input<{ body: typeof ForgotPasswordBody }>, ctx: RequestContext): Promise<void> {
  return enforceRateLimits(
    { key: `forgot-password-address:${ctx.clientNetwork}`, ...FORGOT_PASSWORD_ADDRESS_LIMIT },
    { key: `forgot-password:${body.email}:${ctx.clientNetwork}`, ...FORGOT_PASSWORD_LIMIT },
    { key: `forgot-password:${body.email}`, ...FORGOT_PASSWORD_ACCOUNT_LIMIT },
  );
}

/** Always the same answer: whether the account exists is never revealed, not even by timing. */
export async function forgotPassword({ body }: Input<{ body: typeof ForgotPasswordBody }>): Promise<MessageReply> {
  void defer('password reset code', () => sendResetCode(body.email));
  return message('If an account exists for that e-mail, a reset code has been sent to it.');
}

export async function resetPassword({ body }: Input<{ body: typeof ResetPasswordBody }>, ctx: RequestContext<'public'>): Promise<MessageReply> {
  const db = await getDb();
  const codeHash = hashResetCode(body.token);
  const userId = await checkResetCode(db, body.email, codeHash);
  if (!userId) throw ApiError.of('INVALID_RESET_CODE', INVALID_RESET_CODE);
  const passwordHash = await withPasswordPlace(ctx.clientNetwork, false, (work) => hashPassword(body.newPassword, work));
  // Another request may have used the same code while this one was hashing.
  if (!(await replacePasswordWithResetCode(db, userId, codeHash, passwordHash))) throw ApiError.of('INVALID_RESET_CODE', INVALID_RESET_CODE);
  return message('Your password has been reset.');
}
