import * as v from 'valibot';
import { pageQuery } from '../http/common-schemas.js';
import { imageUploadForm, PROFILE_IMAGE_LIMITS } from '../media/image-upload-form.js';

const MAX_EMAIL_LENGTH = 254;
const MAX_URL_LENGTH = 500;
export const MIN_PASSWORD_LENGTH = 8;
/** bcrypt reads only the first 72 bytes: longer passwords would silently match their prefix. */
export const MAX_PASSWORD_BYTES = 72;
const MAX_CUSTOM_SOCIALS = 20;

const Email = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`),
  v.email('must be a valid e-mail address'),
);

const NewPassword = v.pipe(
  v.string('must be a string'),
  v.minLength(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`),
  v.check((password) => Buffer.byteLength(password, 'utf8') <= MAX_PASSWORD_BYTES, `must be at most ${MAX_PASSWORD_BYTES} bytes`),
);

/** Names a missing field plainly instead of valibot's generic key message. */
const fieldsMessage = (issue: v.BaseIssue<unknown>) => (issue.expected === 'Object' ? 'must be a JSON object' : 'is required');

function text(max: number) {
  return v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
  );
}

const Name = text(100);
const Phone = text(40);
const SixDigits = v.pipe(v.string('must be a string'), v.trim(), v.regex(/^\d{6}$/, 'must be 6 digits'));

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

const HttpUrl = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.maxLength(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`),
  v.check(isHttpUrl, 'must be an http(s) URL'),
);

/** A link field of a profile write: omitted keeps it, empty or null clears it. */
const ClearableLink = v.optional(
  v.pipe(
    v.nullable(v.string('must be a string or null')),
    v.transform((value) => value?.trim() || null),
    v.check((value) => value === null || value.length <= MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`),
    v.check((value) => value === null || isHttpUrl(value), 'must be an http(s) URL'),
  ),
);

const CustomSocial = v.object({ name: text(50), url: HttpUrl }, fieldsMessage);

/** `customSocials`: a JSON string in multipart (empty means none), an array in a JSON body. */
const CustomSocials = v.optional(
  v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      if (typeof dataset.value !== 'string') return dataset.value;
      if (dataset.value.trim() === '') return [];
      try {
        return JSON.parse(dataset.value) as unknown;
      } catch {
        addIssue({ message: 'must be a JSON array of { name, url }' });
        return NEVER;
      }
    }),
    v.array(CustomSocial, 'must be an array of { name, url }'),
    v.maxLength(MAX_CUSTOM_SOCIALS, `must have at most ${MAX_CUSTOM_SOCIALS} entries`),
  ),
);

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
    email: v.pipe(v.string('must be a string'), v.trim(), v.toLowerCase(), v.minLength(1, 'must not be empty'), v.maxLength(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)),
    password: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(1024, 'must be at most 1024 characters')),
  },
  fieldsMessage,
);

export const ProfileUpdateBody = v.object(
  {
    name: v.optional(Name),
    email: v.optional(Email),
    phone: v.optional(Phone),
    social_1: ClearableLink,
    social_2: ClearableLink,
    social_3: ClearableLink,
    social_4: ClearableLink,
    social_5: ClearableLink,
    social_6: ClearableLink,
    social_7: ClearableLink,
    social_8: ClearableLink,
    website: ClearableLink,
    customSocials: CustomSocials,
    /** Required to change `email` (D40): a token alone must not be able to move the account. */
    currentPassword: v.optional(v.pipe(v.string('must be a string'), v.maxLength(1024, 'must be at most 1024 characters'))),
  },
  fieldsMessage,
);

export type ProfileUpdate = v.InferOutput<typeof ProfileUpdateBody>;

/** Profile writes are multipart (or JSON): the fields above and an optional `profileImage` file of at most 5 MB. */
export const profileForm = imageUploadForm(PROFILE_IMAGE_LIMITS);

export const ForgotPasswordBody = v.object({ email: Email }, fieldsMessage);

export const ResetPasswordBody = v.object(
  {
    email: Email,
    token: SixDigits,
    newPassword: NewPassword,
  },
  fieldsMessage,
);

export const AgentCodeCreateBody = v.object(
  {
    name: Name,
    role: v.optional(v.picklist(['AGENT'], 'must be AGENT'), 'AGENT'),
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
