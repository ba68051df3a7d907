import { changesBetween } from '../audit/changes.js';
import { recordAudit } from '../audit/record.js';
import { config } from '../config.js';
import { getDb, type Database } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { ApiError } from '../http/api-error.js';
import { defer } from '../http/deferred-work.js';
import { ok, type DataReply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import type { Input } from '../http/endpoint-input.js';
import { sendMail } from '../mail/send-mail.js';
import { removeImages, storeImages } from '../media/storage.js';
import { withPasswordPlace } from './bcrypt-worker.js';
import { limitCurrentPasswordFailures } from './password-guess-limits.js';
import { passwordMatches } from './passwords.js';
import { profilePresenter } from './presenter.js';
import type { ProfileUpdateBody, profileForm } from './profile-schema.js';
import { findCredentials, findProfile, updateProfile } from './queries.js';
import type { ProfileView } from './view.js';

/**
 * The profile as answered: its image's URL and, with LEGACY_CLIENT_FIELDS on, the original's
 * `firstName`/`lastName` split from `name`.
 */
function profileView<T extends { name: string; profileImage: string | null }>(profile: T): T | (T & { firstName: string; lastName: string }) {
  const presented = profilePresenter(profile);
  if (!config().legacyClientFields) return presented;
  const [firstName = '', ...rest] = presented.name.trim().split(/\s+/);
  return { ...presented, firstName, lastName: rest.join(' ') };
}

export async function getOwnProfile(_input: unknown, ctx: RequestContext<'token'>): Promise<DataReply<ProfileView>> {
  const profile = await findProfile(await getDb(), ctx.user.id);
  if (!profile) throw ApiError.unauthorized('User no longer exists');
  return ok(profileView(profile));
}

/** The profile fields an audit entry compares: everything a caller may change of their own account. */
const PROFILE_FIELDS = [
  'name',
  'email',
  'phone',
  'profileImage',
  'social_1',
  'social_2',
  'social_3',
  'social_4',
  'social_5',
  'social_6',
  'social_7',
  'social_8',
  'website',
  'customSocials',
] as const;

/** Profile fields, and a new profile image that replaces (and deletes) the previous one. */
export async function updateOwnProfile(
  { body, files }: Input<{ body: typeof ProfileUpdateBody; form: typeof profileForm }>,
  ctx: RequestContext<'token'>,
): Promise<DataReply<ProfileView>> {
  const { currentPassword, ...fields } = body;
  const db = await getDb();
  const emailChanges = fields.email !== undefined && fields.email !== ctx.user.email;
  if (emailChanges) await assertCurrentPassword(db, ctx.user, currentPassword, ctx.clientNetwork);
  const [image] = (await storeImages(files.map((file) => file.value))).map((stored) => stored.ref);
  const changes = image ? { ...fields, profileImage: image } : fields;
  let result: Awaited<ReturnType<typeof updateProfile>>;
  try {
    result = await inTransaction(db, async (tx) => {
      const outcome = await updateProfile(tx, ctx.user.id, changes);
      if (!outcome.profile) throw ApiError.unauthorized('User no longer exists');
      const audited = changesBetween(outcome.before!, outcome.profile, PROFILE_FIELDS);
      if (Object.keys(audited).length > 0) await recordAudit(tx, ctx, { action: 'update', entity: 'user', entityId: ctx.user.id, changes: audited });
      return outcome;
    });
  } catch (error) {
    if (image) await removeImages([image]);
    throw error;
  }
  if (result.replacedImage) await removeImages([result.replacedImage]);
  if (emailChanges) void defer('e-mail change notice', () => noticeEmailChange(ctx.user, result.profile!.email));
  return ok(profileView(result.profile!));
}

const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';
/**
 * A change of e-mail is confirmed with the account's password. A missing one is refused without a
 * check; a given one is counted against the account's failures, and checked in the caller's
 * network's lane of password work, so a flood of them cannot delay anyone else's sign-in.
 */
async function assertCurrentPassword(db: Database, user: { id: string; email: string }, currentPassword: string | undefined, network: string): Promise<void> {
  if (!currentPassword) throw ApiError.of('CURRENT_PASSWORD_INCORRECT', WRONG_CURRENT_PASSWORD);
  const account = await findCredentials(db, user.email);
  const matched = await withPasswordPlace(network, false, (work) => limitCurrentPasswordFailures(user.id, () => passwordMatches(currentPassword, account?.password, work)));
  if (!matched) throw ApiError.of('CURRENT_PASSWORD_INCORRECT', WRONG_CURRENT_PASSWORD);
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
