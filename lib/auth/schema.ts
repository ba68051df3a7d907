import * as v from 'valibot';
import { pageQuery } from '../http/common-schemas.js';

const MAX_EMAIL_LENGTH = 254;
export const MIN_PASSWORD_LENGTH = 8;
/** bcrypt reads only the first 72 bytes: longer passwords would silently match their prefix. */
export const MAX_PASSWORD_BYTES = 72;
/** A device token is a short signed token; anything longer is not one. */
const MAX_DEVICE_TOKEN_LENGTH = 1000;

export const Email = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`),
  v.email('must be a valid e-mail address'),
);

/** Longer passwords would be silently cut by bcrypt: refused everywhere a password is taken. */
export const fitsBcrypt = (password: string) => Buffer.byteLength(password, 'utf8') <= MAX_PASSWORD_BYTES;

export const NewPassword = v.pipe(
  v.string('must be a string'),
  v.minLength(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`),
  v.check(fitsBcrypt, `must be at most ${MAX_PASSWORD_BYTES} bytes`),
);

/** Names a missing field plainly instead of valibot's generic key message. */
export const fieldsMessage = (issue: v.BaseIssue<unknown>) => (issue.expected === 'Object' ? 'must be a JSON object' : 'is required');

export function text(max: number) {
  return v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
  );
}

export const Name = text(100);
export const Phone = text(40);
const SixDigits = v.pipe(v.string('must be a string'), v.trim(), v.regex(/^\d{6}$/, 'must be 6 digits'));

export const RegisterBody = v.object(
  {
    email: Email,
    password: NewPassword,
    name: Name,
    phone: Phone,
    agentCode: SixDigits,
    /** Sent by an older client; accepted and ignored, since registration always makes an AGENT. */
    role: v.optional(v.unknown()),
  },
  fieldsMessage,
);

export const LoginBody = v.object(
  {
    email: v.pipe(
      v.string('must be a string'),
      v.trim(),
      v.toLowerCase(),
      v.minLength(1, 'must not be empty'),
      v.maxLength(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`),
      v.examples(['sara.tesfaye@example.com']),
    ),
    password: v.pipe(
      v.string('must be a string'),
      v.minLength(1, 'must not be empty'),
      v.check(fitsBcrypt, `must be at most ${MAX_PASSWORD_BYTES} bytes`),
      v.examples(['correct-horse-battery-staple']),
    ),
    deviceToken: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.maxLength(MAX_DEVICE_TOKEN_LENGTH, `must be at most ${MAX_DEVICE_TOKEN_LENGTH} characters`),
        v.description(
          'The `deviceToken` an earlier sign-in on this device answered: with a valid one of this account, only this device\'s own failures can refuse the sign-in. One that is not valid for the account counts for nothing.',
        ),
      ),
    ),
  },
  fieldsMessage,
);

export type LoginBody = v.InferOutput<typeof LoginBody>;

export const ForgotPasswordBody = v.object({ email: Email }, fieldsMessage);

/** `password` is the original service's name for `newPassword`, accepted for its clients (deprecated); `newPassword` wins when both come. */
export const ResetPasswordBody = v.pipe(
  v.object(
    {
      email: Email,
      token: SixDigits,
      newPassword: v.optional(NewPassword),
      password: v.optional(NewPassword),
    },
    fieldsMessage,
  ),
  v.forward(
    v.check((body) => body.newPassword !== undefined || body.password !== undefined, 'is required'),
    ['newPassword'],
  ),
  v.transform(({ email, token, newPassword, password }) => ({ email, token, newPassword: (newPassword ?? password)! })),
);

export const AgentCodeCreateBody = v.object(
  {
    name: Name,
    // The original admin panel sends `role: "agent"`: any letter case is accepted.
    role: v.optional(v.pipe(v.string('must be AGENT'), v.toUpperCase(), v.picklist(['AGENT'], 'must be AGENT')), 'AGENT'),
    maxUses: v.optional(
      v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'), v.maxValue(100, 'must be at most 100')),
      1,
    ),
    phone: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(40, 'must be at most 40 characters')), ''),
    expiresInHours: v.optional(
      v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'), v.maxValue(720, 'must be at most 720')),
      24,
    ),
  },
  fieldsMessage,
);

export const VerifyAgentCodeBody = v.object({ code: SixDigits }, fieldsMessage);

export const AdminListQuery = v.object(pageQuery());
