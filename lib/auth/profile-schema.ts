import * as v from 'valibot';
import { imageUploadForm, PROFILE_IMAGE_LIMITS } from '../media/image-upload-form.js';
import { Email, fieldsMessage, fitsBcrypt, MAX_PASSWORD_BYTES, Name, Phone, text } from './schema.js';

const MAX_URL_LENGTH = 500;
const MAX_CUSTOM_SOCIALS = 20;

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
    /** Required to change `email`: a token alone must not be able to move the account. */
    currentPassword: v.optional(v.pipe(v.string('must be a string'), v.check(fitsBcrypt, `must be at most ${MAX_PASSWORD_BYTES} bytes`))),
  },
  fieldsMessage,
);

export type ProfileUpdate = v.InferOutput<typeof ProfileUpdateBody>;

/** Profile writes are multipart (or JSON): the fields above and an optional `profileImage` file of at most 5 MB. */
export const profileForm = imageUploadForm(PROFILE_IMAGE_LIMITS);
