import * as v from 'valibot';
import { pageQuery, Uuid } from '../http/common-schemas.js';
import { syndicationActionEnum, syndicationStatusEnum } from '../db/schema.js';

/** The original service's name for the messenger platform, one config with it (deprecated). */
const PLATFORM_ALIASES: Readonly<Record<string, string>> = { TELEGRAM: 'MESSENGER' };

/** The platform a config belongs to: a code such as `MESSENGER`, matched case-insensitively; `TELEGRAM` is `MESSENGER`. */
const Platform = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.toUpperCase(),
  v.regex(/^[A-Z][A-Z0-9_]{0,31}$/, 'must be a platform code such as MESSENGER'),
  v.transform((platform) => PLATFORM_ALIASES[platform] ?? platform),
);

export const PlatformParams = v.object({ platform: Platform });

/**
 * Bot tokens end up in the Bot API's URL path, so only the characters real tokens use are accepted.
 * A masked value (`••••••••abcd`) is accepted too: sent back unchanged it keeps the stored token.
 */
const BotToken = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.regex(/^(?:[A-Za-z0-9:_-]{1,256}|•+[A-Za-z0-9:_-]{0,4})$/, 'must be a bot token (letters, digits, ":", "_" and "-")'),
);

const ChannelId = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.regex(/^(?:-?\d{1,20}|@[A-Za-z0-9_]{4,64})$/, 'must be a numeric chat id or an @username'),
);

/** `POST /api/syndication/config`: creates the platform's config or updates the fields sent. */
export const ConfigBody = v.object({
  platform: Platform,
  botToken: v.optional(v.nullable(BotToken)),
  channelId: v.optional(v.nullable(ChannelId)),
  isActive: v.optional(v.boolean('must be true or false')),
});
export type ConfigInput = v.InferOutput<typeof ConfigBody>;

/** A channel message id from the path. */
export const MessageIdParams = v.object({
  messageId: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.regex(/^[1-9]\d{0,9}$/, 'must be a positive whole number'),
    v.transform(Number),
    v.maxValue(2_147_483_647, 'must be a message id'),
  ),
});

export const EditMessageBody = v.object({
  caption: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(1024, 'must be at most 1024 characters'),
  ),
});

export const ListingIdParams = v.object({ listingId: Uuid });

export const LogsQuery = v.object({
  ...pageQuery(20, 100),
  status: v.optional(v.picklist(syndicationStatusEnum.enumValues, `must be one of ${syndicationStatusEnum.enumValues.join(', ')}`)),
  action: v.optional(v.picklist(syndicationActionEnum.enumValues, `must be one of ${syndicationActionEnum.enumValues.join(', ')}`)),
  listingId: v.optional(Uuid),
});
export type LogsFilter = v.InferOutput<typeof LogsQuery>;
