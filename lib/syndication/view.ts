import * as v from 'valibot';
import { IsoTimestamp, JsonObject, RecordId, Timestamp } from '../http/common-views.js';

const Masked = v.nullable(v.pipe(v.string(), v.description('Masked: only the last 4 characters are shown.'), v.examples(['••••••••x9Kq'])));

export const ConfigView = v.pipe(
  v.object({
    id: v.nullable(RecordId),
    platform: v.pipe(v.string(), v.examples(['MESSENGER'])),
    botToken: Masked,
    channelId: v.nullable(v.pipe(v.string(), v.examples(['@brostech_deals']))),
    apiKey: Masked,
    apiSecret: Masked,
    isActive: v.boolean(),
    extraConfig: v.nullable(JsonObject),
    source: v.pipe(v.picklist(['database', 'environment']), v.description('`environment`: the defaults from the environment, shown while no config is stored.')),
    createdAt: v.nullable(Timestamp),
    updatedAt: v.nullable(Timestamp),
  }),
  v.title('ChannelConfig'),
);

export type ConfigView = v.InferOutput<typeof ConfigView>;

export const LogView = v.pipe(
  v.object({
    id: RecordId,
    listingId: RecordId,
    platform: v.pipe(v.string(), v.examples(['MESSENGER'])),
    status: v.picklist(['PENDING', 'SUCCESS', 'FAILED']),
    action: v.picklist(['NEW_POST', 'EDITED', 'DELETED']),
    channelInfo: v.string(),
    messageId: v.nullable(v.pipe(v.number(), v.integer())),
    errorMessage: v.nullable(v.string()),
    runAt: Timestamp,
    listing: v.object({ id: RecordId, title: v.string() }),
  }),
  v.title('ChannelPost'),
);

export type LogView = v.InferOutput<typeof LogView>;

export const TriggeredView = v.object({ listingId: RecordId, messageId: v.nullable(v.pipe(v.number(), v.integer())), message: v.string() });

export type TriggeredView = v.InferOutput<typeof TriggeredView>;

export const MessageDeletedView = v.object({ messageId: v.pipe(v.number(), v.integer()), deleted: v.literal(true) });

export type MessageDeletedView = v.InferOutput<typeof MessageDeletedView>;

export const MessageEditedView = v.object({ messageId: v.pipe(v.number(), v.integer()), caption: v.string(), edited: v.literal(true) });

export type MessageEditedView = v.InferOutput<typeof MessageEditedView>;

export const ConfigDeletedView = v.object({ platform: v.string() });

export type ConfigDeletedView = v.InferOutput<typeof ConfigDeletedView>;

const Count = v.pipe(v.number(), v.integer());

export const PostingHealthView = v.object({
  pending: v.pipe(Count, v.description('Entries waiting to be posted (or being posted now).')),
  failedRetrying: v.pipe(Count, v.description('Failed entries the sweeper will try again.')),
  failedForGood24h: v.pipe(Count, v.description('Entries of the last 24 hours that failed and will not be tried again (the failure cannot heal, or attempts ran out).')),
  succeeded24h: Count,
  oldestPendingSeconds: v.pipe(v.nullable(v.number()), v.description('How long the oldest waiting entry has waited; null when none waits.')),
  lastSuccessAt: v.nullable(IsoTimestamp),
  lastFailureAt: v.nullable(IsoTimestamp),
  lastRateLimitedAt: v.pipe(v.nullable(IsoTimestamp), v.description('The last attempt the Bot API refused for flood control (429).')),
  lastRetryAfterSeconds: v.pipe(v.nullable(v.number()), v.description('The wait the Bot API asked for then.')),
});

export type PostingHealthView = v.InferOutput<typeof PostingHealthView>;

const BotView = v.object({ id: v.number(), first_name: v.string(), username: v.pipe(v.string(), v.examples(['brostech_bot'])) });

export const PublicBotView = v.object({ ...BotView.entries, link: v.pipe(v.string(), v.url(), v.examples(['https://t.me/brostech_bot'])) });

export type PublicBotView = v.InferOutput<typeof PublicBotView>;

export const MessengerInfoView = v.object({
  bot: v.object({ ...BotView.entries, photoUrl: v.null() }),
  channel: v.object({ id: v.number(), title: v.nullable(v.string()), username: v.nullable(v.string()), memberCount: v.number(), photoUrl: v.null() }),
});

export type MessengerInfoView = v.InferOutput<typeof MessengerInfoView>;

export const WebhookView = v.object({
  url: v.string(),
  has_custom_certificate: v.boolean(),
  pending_update_count: v.number(),
  ip_address: v.nullable(v.string()),
  last_error_date: v.nullable(v.number()),
  last_error_message: v.nullable(v.string()),
  max_connections: v.nullable(v.number()),
  allowed_updates: v.nullable(v.array(v.string())),
});

export type WebhookView = v.InferOutput<typeof WebhookView>;
