import { getDb, type Database } from '../db/client.js';
import { defer } from '../http/deferred-work.js';
import { sendMail } from '../mail/send-mail.js';
import { removeImages, storeImages } from '../media/storage.js';
import { ApiError } from '../http/api-error.js';
import { created, ok, type Reply } from '../http/reply.js';
import type { Input, RequestContext } from '../http/route.js';
import { enforceRateLimit } from '../rate-limit/enforce-rate-limit.js';
import { consumeAgentCode, recordAgentCodeUser } from './agent-code-queries.js';
import { compareAgainstDummy, hashPassword, passwordMatches } from './passwords.js';
import { userSummary } from './presenter.js';
import { findCredentials, findProfile, insertAgent, updateProfile } from './queries.js';
import type { LoginBody, ProfileUpdateBody, profileForm, RegisterBody } from './schema.js';
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
  const user = await db.transaction(async (tx) => {
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

export async function getOwnProfile(_input: unknown, ctx: RequestContext<'token'>): Promise<Reply> {
  const profile = await findProfile(await getDb(), ctx.user.id);
  if (!profile) throw ApiError.unauthorized('User no longer exists');
  return ok(profile);
}

/** Profile fields, and a new profile image that replaces (and deletes) the previous one. */
export async function updateOwnProfile(
  { body, files }: Input<{ body: typeof ProfileUpdateBody; form: typeof profileForm }>,
  ctx: RequestContext<'token'>,
): Promise<Reply> {
  const { currentPassword, ...fields } = body;
  const db = await getDb();
  const emailChanges = fields.email !== undefined && fields.email !== ctx.user.email;
  if (emailChanges) await assertCurrentPassword(db, ctx.user.email, currentPassword);
  const [image] = await storeImages(files.map((file) => file.value.data));
  const changes = image ? { ...fields, profileImage: image } : fields;
  let result: Awaited<ReturnType<typeof updateProfile>>;
  try {
    result = await updateProfile(db, ctx.user.id, changes);
    if (!result.profile) throw ApiError.unauthorized('User no longer exists');
  } catch (error) {
    if (image) await removeImages([image]);
    throw error;
  }
  if (result.replacedImage) await removeImages([result.replacedImage]);
  if (emailChanges) void defer('e-mail change notice', () => noticeEmailChange(ctx.user, result.profile!.email));
  return ok(result.profile);
}

const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';

/** D40: a change of e-mail is confirmed with the account's password. */
async function assertCurrentPassword(db: Database, email: string, currentPassword: string | undefined): Promise<void> {
  const account = await findCredentials(db, email);
  if (!currentPassword || !account) {
    await compareAgainstDummy(currentPassword ?? '');
    throw ApiError.forbidden(WRONG_CURRENT_PASSWORD);
  }
  if (!(await passwordMatches(currentPassword, account.password))) throw ApiError.forbidden(WRONG_CURRENT_PASSWORD);
}

/** The old address hears of the change, so a stolen session cannot move an account unnoticed. */
function noticeEmailChange(user: { email: string; name: string }, newEmail: string): Promise<void> {
  return sendMail({
    to: user.email,
    subject: 'The e-mail address of your account was changed',
    text: [
      `Hello ${user.name},`,
      '',
      `The e-mail address of your account was changed from ${user.email} to ${newEmail}.`,
      '',
      'If you did not make this change, contact the shop administrator at once.',
    ].join('\n'),
  });
}
