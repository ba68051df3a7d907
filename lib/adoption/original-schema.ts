/**
 * What adoption knows of the original service's database (Express + Prisma): the migrations its
 * deployments apply, and the tables and columns they and its schema file leave.
 */

/** Every migration of the original, in order; a database it ran on has applied them all. */
export const ORIGINAL_MIGRATIONS = [
  '20260601175413_init',
  '20260611210715_add_syndication_config',
  '20260612061032_add_syndication_action_messageid',
  '20260613040002_add_profile_image_to_user',
  '20260613043309_add_social_media_fields',
  '20260613061124_add_telegram_chat_id',
  '20260613070737_add_telegram_user_info',
  '20260617000001_add_custom_socials',
  '20260617000002_add_notifications',
  '20260619054358_add_password_reset_fields',
  '20260619120000_add_commission_percent',
  '20260808000001_make_agentid_nullable',
  '20260809000001_add_stock_quantity',
  '20260809000002_remove_city_neighborhood',
] as const;

/** Prisma's record of applied migrations. */
export const PRISMA_MIGRATIONS_TABLE = '_prisma_migrations';

/** The columns each of the original's tables must have for its rows to be carried over. */
export const ORIGINAL_TABLES = {
  users: [
    'id', 'email', 'password', 'name', 'phone', 'role', 'profileImage',
    'facebook', 'twitter', 'instagram', 'linkedin', 'telegram', 'whatsapp', 'tiktok', 'youtube', 'website',
    'customSocials', 'passwordResetToken', 'passwordResetExpires', 'createdAt', 'updatedAt',
  ],
  categories: ['id', 'name', 'displayName', 'icon', 'schemaRules', 'createdAt', 'updatedAt'],
  listings: [
    'id', 'title', 'description', 'price', 'status', 'images', 'attributes', 'customTelegramCaption', 'categoryId',
    'agentId', 'viewsCount', 'stockQuantity', 'commissionPercent', 'createdAt', 'updatedAt',
  ],
  syndication_logs: ['id', 'listingId', 'platform', 'status', 'action', 'channelInfo', 'messageId', 'errorMessage', 'runAt'],
  syndication_configs: ['id', 'platform', 'botToken', 'channelId', 'apiKey', 'apiSecret', 'isActive', 'extraConfig', 'createdAt', 'updatedAt'],
  notifications: ['id', 'userId', 'title', 'body', 'type', 'data', 'isRead', 'createdAt'],
  // The two below were made outside the original's migrations (from its schema file): a database may lack them.
  agent_codes: ['id', 'code', 'createdById', 'agentName', 'agentPhone', 'isUsed', 'usedById', 'expiresAt', 'createdAt'],
  settings: ['key', 'value', 'updatedAt'],
} as const satisfies Record<string, readonly string[]>;

export type OriginalTable = keyof typeof ORIGINAL_TABLES;

/** Tables that only the original's schema file defines. */
export const OPTIONAL_TABLES: readonly OriginalTable[] = ['agent_codes', 'settings'];

/** Columns that only the original's schema file defines, by table. */
export const OPTIONAL_COLUMNS: Partial<Record<OriginalTable, readonly string[]>> = { listings: ['inquiryClicks'] };

/**
 * The original's user columns with no place in this schema (its bot sign-in), kept in `users` as
 * they are and never served, with the definitions its migrations gave them.
 */
export const CARRIED_USER_COLUMNS = [
  { name: 'telegramChatId', definition: 'text' },
  { name: 'telegramConnected', definition: 'boolean DEFAULT false NOT NULL' },
  { name: 'telegramFirstName', definition: 'text' },
  { name: 'telegramPhotoUrl', definition: 'text' },
  { name: 'telegramUsername', definition: 'text' },
] as const;

/** The original's enum types; this schema has its own of the same names. */
export const ORIGINAL_ENUMS = ['Role', 'ListingStatus', 'SyndicationStatus', 'SyndicationAction'] as const;

/** The original's platform name for the channel (ours is `MESSENGER`). */
export const ORIGINAL_PLATFORM = 'TELEGRAM';

/** The original's social columns, in the order of `social_1` .. `social_8`: facebook, twitter, instagram, linkedin, telegram, whatsapp, tiktok, youtube. */
export const SOCIAL_COLUMNS = ['facebook', 'twitter', 'instagram', 'linkedin', 'telegram', 'whatsapp', 'tiktok', 'youtube'] as const;
