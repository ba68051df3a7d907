import crypto from 'node:crypto';
import { getDb } from '../db/client.js';
import { ApiError } from '../http/api-error.js';
import { defer } from '../http/deferred-work.js';
import { message, type Reply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import type { Input } from '../http/endpoint-input.js';
import { sendMail } from '../mail/send-mail.js';
import { enforceRateLimit } from '../rate-limit/enforce-rate-limit.js';
import { hashPassword } from './passwords.js';
import { checkResetCode, replacePasswordWithResetCode, RESET_CODE_LIFETIME_MINUTES, storeResetCode } from './queries.js';
import type { ForgotPasswordBody, ResetPasswordBody } from './schema.js';

/**
 * Limits reset e-mails per e-mail and address, and per e-mail whatever the address: strangers
 * can use up only their own allowance, not the owner's.
 */
const FORGOT_PASSWORD_LIMIT = { limit: 5, windowSeconds: 60 * 60 };
const FORGOT_PASSWORD_ACCOUNT_LIMIT = { limit: 20, windowSeconds: 60 * 60 };

const INVALID_RESET_CODE = 'Invalid or expired reset code';

/** Only the hash is stored, so a copy of the database does not hand out live reset codes. */
function hashResetCode(code: string): string {
  return crypto.createHash('sha256').update(code).digest('hex');
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

/** Always the same answer: whether the account exists is never revealed, not even by timing. */
export async function forgotPassword({ body }: Input<{ body: typeof ForgotPasswordBody }>, ctx: RequestContext<'public'>): Promise<Reply> {
  await enforceRateLimit({ key: `forgot-password:${body.email}:${ctx.clientIp}`, ...FORGOT_PASSWORD_LIMIT });
  await enforceRateLimit({ key: `forgot-password:${body.email}`, ...FORGOT_PASSWORD_ACCOUNT_LIMIT });
  void defer('password reset code', () => sendResetCode(body.email));
  return message('If an account exists for that e-mail, a reset code has been sent to it.');
}

export async function resetPassword({ body }: Input<{ body: typeof ResetPasswordBody }>): Promise<Reply> {
  const db = await getDb();
  const codeHash = hashResetCode(body.token);
  const userId = await checkResetCode(db, body.email, codeHash);
  if (!userId) throw ApiError.of('INVALID_RESET_CODE', INVALID_RESET_CODE);
  const passwordHash = await hashPassword(body.newPassword);
  // Another request may have used the same code while this one was hashing.
  if (!(await replacePasswordWithResetCode(db, userId, codeHash, passwordHash))) throw ApiError.of('INVALID_RESET_CODE', INVALID_RESET_CODE);
  return message('Your password has been reset.');
}
