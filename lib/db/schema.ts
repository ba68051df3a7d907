import { bigint } from 'drizzle-orm/pg-core/columns/bigint';
import { boolean } from 'drizzle-orm/pg-core/columns/boolean';
import { pgEnum } from 'drizzle-orm/pg-core/columns/enum';
import { integer } from 'drizzle-orm/pg-core/columns/integer';
import { jsonb } from 'drizzle-orm/pg-core/columns/jsonb';
import { numeric } from 'drizzle-orm/pg-core/columns/numeric';
import { text } from 'drizzle-orm/pg-core/columns/text';
import { timestamp } from 'drizzle-orm/pg-core/columns/timestamp';
import { uuid } from 'drizzle-orm/pg-core/columns/uuid';
import { check } from 'drizzle-orm/pg-core/checks';
import { index, uniqueIndex } from 'drizzle-orm/pg-core/indexes';
import { primaryKey } from 'drizzle-orm/pg-core/primary-keys';
import { pgTable } from 'drizzle-orm/pg-core/table';
import { customType } from 'drizzle-orm/pg-core/columns/custom';
import { sql, type SQL } from 'drizzle-orm/sql/sql';

/** Table, column and enum names follow the specification exactly (camelCase columns). */

export const roleEnum = pgEnum('Role', ['SUPER_ADMIN', 'AGENT']);
export const listingStatusEnum = pgEnum('ListingStatus', ['AVAILABLE', 'PENDING', 'SOLD', 'ARCHIVED']);
export const syndicationStatusEnum = pgEnum('SyndicationStatus', ['PENDING', 'SUCCESS', 'FAILED']);
export const syndicationActionEnum = pgEnum('SyndicationAction', ['NEW_POST', 'EDITED', 'DELETED']);

export type Role = (typeof roleEnum.enumValues)[number];
export type ListingStatus = (typeof listingStatusEnum.enumValues)[number];
export type SyndicationStatus = (typeof syndicationStatusEnum.enumValues)[number];
export type SyndicationAction = (typeof syndicationActionEnum.enumValues)[number];

const createdAt = () => timestamp('createdAt', { precision: 3, withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp('updatedAt', { precision: 3, withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/** A full-text document, read and written only by the database. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export interface CustomSocial {
  name: string;
  url: string;
}

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique('users_email_key'),
  password: text('password').notNull(),
  name: text('name').notNull(),
  phone: text('phone').notNull().default(''),
  role: roleEnum('role').notNull().default('AGENT'),
  profileImage: text('profileImage'),
  social_1: text('social_1'),
  social_2: text('social_2'),
  social_3: text('social_3'),
  social_4: text('social_4'),
  social_5: text('social_5'),
  social_6: text('social_6'),
  social_7: text('social_7'),
  social_8: text('social_8'),
  website: text('website'),
  customSocials: jsonb('customSocials').$type<CustomSocial[]>().notNull().default([]),
  /** Holds the keyed digest (HMAC) of the 6-digit reset code, never the code itself. */
  passwordResetToken: text('passwordResetToken'),
  passwordResetExpires: timestamp('passwordResetExpires', { precision: 3, withTimezone: true }),
  passwordResetAttempts: integer('passwordResetAttempts').notNull().default(0),
  /** Tokens issued before this (a password reset or change) are refused: the sessions it ends. */
  tokensValidAfter: timestamp('tokensValidAfter', { precision: 0, withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * The device tokens an account has live (see lib/auth/device-tokens.ts): a sign-in records one and
 * keeps the account's newest 10, a password reset or change removes them all. `network` is where the
 * sign-in came from (an IPv6 address by its /64): a network the account signed in from is familiar to it.
 */
export const deviceTokens = pgTable(
  'device_tokens',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('userId')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    network: text('network').notNull(),
    issuedAt: timestamp('issuedAt', { precision: 3, withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('device_tokens_userId_issuedAt_idx').on(t.userId, t.issuedAt.desc())],
);

export type SchemaRuleType = 'string' | 'number' | 'boolean' | 'select';

export interface SchemaRule {
  field: string;
  type: SchemaRuleType;
  required: boolean;
  options?: string[];
}

export const categories = pgTable('categories', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique('categories_name_key'),
  displayName: text('displayName').notNull(),
  icon: text('icon').notNull().default(''),
  schemaRules: jsonb('schemaRules').$type<SchemaRule[]>().notNull().default([]),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type ListingAttributes = Record<string, string | number | boolean>;

export const listings = pgTable(
  'listings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    price: numeric('price', { precision: 12, scale: 2, mode: 'number' }).notNull(),
    status: listingStatusEnum('status').notNull().default('AVAILABLE'),
    city: text('city'),
    neighborhood: text('neighborhood'),
    images: text('images').array().notNull().default(sql`'{}'::text[]`),
    attributes: jsonb('attributes').$type<ListingAttributes>().notNull().default({}),
    /**
     * What the storefront's search finds a listing by (listing_search_document(), whose current
     * text is migration 0037's): every word of its title, attribute values and description; their
     * beginnings of 3 to 5 characters marked `p:`; its title, brand and model words marked `t:`;
     * its attribute terms `a:name=value` and amenities `m:`; its category `c:<id>`; the spans of
     * days holding its creation `d:` and the spans of prices holding its price `v:`.
     * One GIN index over it serves every storefront filter and both orders' windows.
     */
    searchDocument: tsvector('searchDocument')
      .notNull()
      .generatedAlwaysAs(
        (): SQL => sql`listing_search_document(${listings.title}, ${listings.description}, ${listings.attributes}, ${listings.categoryId}, ${listings.createdAt}, ${listings.price})`,
      ),
    customTelegramCaption: text('customTelegramCaption'),
    /**
     * Set for every listing in the shop. Only a listing in the trash may lose it: deleting a
     * category that only trashed listings use leaves them without one, its display name kept in
     * `removedCategory`, so a restore can say which category is gone.
     */
    categoryId: uuid('categoryId').references(() => categories.id, { onDelete: 'restrict', onUpdate: 'cascade' }),
    agentId: uuid('agentId').references(() => users.id, { onDelete: 'set null', onUpdate: 'cascade' }),
    viewsCount: integer('viewsCount').notNull().default(0),
    inquiryClicks: integer('inquiryClicks').notNull().default(0),
    stockQuantity: integer('stockQuantity').notNull().default(0),
    commissionPercent: numeric('commissionPercent', { precision: 5, scale: 2, mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * When the listing was moved to the trash; null while it is in the shop. A trashed listing is
     * out of every read and kept count (the triggers of migration 0025 treat it as absent) until it
     * is restored, or removed for good by an administrator or the sweeper.
     */
    deletedAt: timestamp('deletedAt', { precision: 3, withTimezone: true }),
    /** The display name of the category deleted while this listing was in the trash; null otherwise. */
    removedCategory: text('removedCategory'),
  },
  (t) => [
    check(
      'listings_category_required_check',
      sql`${t.categoryId} is not null or (${t.deletedAt} is not null and ${t.removedCategory} is not null)`,
    ),
    index('listings_city_neighborhood_idx').on(t.city, t.neighborhood),
    // Lists read newest first with `ORDER BY "createdAt" DESC, id DESC`; the indexes keep that
    // exact order (DESC sorts NULLS FIRST) so pages are read straight from them.
    index('listings_agentId_createdAt_idx').on(t.agentId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('listings_status_createdAt_idx').on(t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('listings_createdAt_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The storefront's one search index: words, word beginnings, attribute terms, amenities, the
    // category, and the spans of creation days and prices of available listings out of the trash,
    // so a read intersects a term's listings with a window of either order key inside the index.
    // Partial: the storefront reads nothing else, and the rest costs writes nothing.
    index('listings_available_searchDocument_idx')
      .using('gin', t.searchDocument)
      .where(sql`${t.status} = 'AVAILABLE' and ${t.deletedAt} is null`),
    // The administrators' and agents' search, a substring of title and description (listingText in
    // lib/listings/text-search.ts), over every status: without it a rare substring reads the table.
    index('listings_text_trgm_idx').using('gin', sql`(${t.title} || E'\\n' || ${t.description}) gin_trgm_ops`),
    // A category's pages, of one status or all, read newest first straight from the index.
    index('listings_categoryId_status_createdAt_idx').on(t.categoryId, t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Price windows, on the storefront and in the admin list.
    index('listings_price_idx').on(t.price),
    // Commission pages (listings with a commission set, or without), newest first, read from the index alone.
    index('listings_commissioned_createdAt_idx')
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.commissionPercent} is not null`),
    index('listings_uncommissioned_createdAt_idx')
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.commissionPercent} is null`),
    // A category's price range (filter-options), read from either end; the price index alone
    // walks every cheaper listing of other categories first.
    index('listings_categoryId_status_price_idx').on(t.categoryId, t.status, t.price),
    // Finds the listing holding an image, so a directly uploaded image is given to one listing only.
    index('listings_images_idx').using('gin', t.images),
    // The trash, newest deletion first, and the listings past their time in it: a small index of
    // the few trashed listings, which every other index also holds.
    index('listings_trashed_deletedAt_idx')
      .on(t.deletedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is not null`),
  ],
);

export const syndicationLogs = pgTable(
  'syndication_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    listingId: uuid('listingId')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    platform: text('platform').notNull(),
    status: syndicationStatusEnum('status').notNull().default('PENDING'),
    action: syndicationActionEnum('action').notNull().default('NEW_POST'),
    channelInfo: text('channelInfo').notNull().default(''),
    messageId: integer('messageId'),
    /** Every message a successful new post sent, first to last (an album's items, then its buttons message). */
    postMessageIds: integer('postMessageIds').array(),
    errorMessage: text('errorMessage'),
    runAt: timestamp('runAt', { precision: 3, withTimezone: true }).notNull().defaultNow(),
    /** Which attempt at its post this entry is: 1 for the first, one more for each retry, each retry being an entry of its own. */
    attempt: integer('attempt').notNull().default(1),
    /** A FAILED entry whose failure can heal: when the sweeper may try it again. Null once retried, or when it cannot heal. */
    retryAt: timestamp('retryAt', { precision: 3, withTimezone: true }),
    /** Set when the Bot API refused the attempt for flood control (429): the seconds it asked to wait. */
    retryAfterSeconds: integer('retryAfterSeconds'),
  },
  (t) => [
    index('syndication_logs_listingId_runAt_idx').on(t.listingId, t.runAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('syndication_logs_runAt_idx').on(t.runAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The sweeper's two questions, answered from small partial indexes.
    index('syndication_logs_retryAt_idx').on(t.retryAt).where(sql`${t.retryAt} is not null`),
    index('syndication_logs_pending_runAt_idx').on(t.runAt).where(sql`${t.status} = 'PENDING'`),
    // Posting health: each state's latest entry and its count over the last day.
    index('syndication_logs_status_runAt_idx').on(t.status, t.runAt),
    index('syndication_logs_rateLimited_runAt_idx').on(t.runAt).where(sql`${t.retryAfterSeconds} is not null`),
  ],
);

export const syndicationConfigs = pgTable('syndication_configs', {
  id: uuid('id').primaryKey().defaultRandom(),
  platform: text('platform').notNull().unique('syndication_configs_platform_key'),
  botToken: text('botToken'),
  channelId: text('channelId'),
  apiKey: text('apiKey'),
  apiSecret: text('apiSecret'),
  isActive: boolean('isActive').notNull().default(true),
  extraConfig: jsonb('extraConfig').$type<Record<string, unknown>>(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('userId')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    title: text('title').notNull(),
    body: text('body'),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>(),
    isRead: boolean('isRead').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_userId_isRead_idx').on(t.userId, t.isRead),
    index('notifications_userId_createdAt_idx').on(t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

export const agentCodes = pgTable(
  'agent_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    createdById: uuid('createdById')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    agentName: text('agentName').notNull(),
    agentPhone: text('agentPhone').notNull().default(''),
    role: roleEnum('role').notNull().default('AGENT'),
    isUsed: boolean('isUsed').notNull().default(false),
    usedById: uuid('usedById').references(() => users.id, { onDelete: 'set null', onUpdate: 'cascade' }),
    maxUses: integer('maxUses').notNull().default(1),
    useCount: integer('useCount').notNull().default(0),
    revokedAt: timestamp('revokedAt', { precision: 3, withTimezone: true }),
    expiresAt: timestamp('expiresAt', { precision: 3, withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('agent_codes_code_key').on(t.code)],
);

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value'),
  updatedAt: updatedAt(),
});

/** Fixed-window counters shared by every function instance. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull().default(0),
    resetAt: timestamp('resetAt', { precision: 3, withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_resetAt_idx').on(t.resetAt)],
);

/**
 * One-time links that make the first administrator from a browser, printed by a local start while
 * there is none. Only a keyed hash of each link's token is kept, with the moment it stops working.
 */
export const setupLinks = pgTable('setup_links', {
  tokenHash: text('tokenHash').primaryKey(),
  expiresAt: timestamp('expiresAt', { precision: 3, withTimezone: true }).notNull(),
});

/**
 * Images a client may upload straight to the image host: one per upload ticket, under the public id
 * the ticket signed. An image no listing took within a day is removed by the sweeper.
 */
export const directUploads = pgTable(
  'direct_uploads',
  {
    publicId: text('publicId').primaryKey(),
    userId: uuid('userId').references(() => users.id, { onDelete: 'set null', onUpdate: 'cascade' }),
    issuedAt: timestamp('issuedAt', { precision: 3, withTimezone: true }).notNull().defaultNow(),
    /** When a listing took the image; null while nothing has. */
    attachedAt: timestamp('attachedAt', { precision: 3, withTimezone: true }),
  },
  (t) => [index('direct_uploads_issuedAt_idx').on(t.issuedAt)],
);

/**
 * Answers of creating requests sent with an `Idempotency-Key`, per caller and route, kept
 * 24 hours so that a client's retry gets the first answer instead of a second write.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** The caller: a user id, or the client address of an anonymous request. */
    scope: text('scope').notNull(),
    route: text('route').notNull(),
    key: text('key').notNull(),
    /** A keyed digest (HMAC) of the request, so the same key with another request is told apart; it holds nothing of a password. */
    fingerprint: text('fingerprint').notNull(),
    /** The first answer, once it is known; null while the first request runs. */
    status: integer('status'),
    body: jsonb('body'),
    createdAt: timestamp('createdAt', { precision: 3, withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.route, t.key] }), index('idempotency_keys_createdAt_idx').on(t.createdAt)],
);

/**
 * Running totals of the listings per category and status, kept by triggers on `listings`
 * (migration 0008), so the asset figures read a few rows instead of every listing.
 */
export const listingTotals = pgTable(
  'listing_totals',
  {
    categoryId: uuid('categoryId')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    status: listingStatusEnum('status').notNull(),
    listings: integer('listings').notNull().default(0),
    value: numeric('value', { mode: 'number' }).notNull().default(0),
    stock: bigint('stock', { mode: 'number' }).notNull().default(0),
    /** Listings with a commission set, the sum of their percents and of price × percent / 100. */
    commissioned: integer('commissioned').notNull().default(0),
    commissionPercentSum: numeric('commissionPercentSum', { mode: 'number' }).notNull().default(0),
    commissionValue: numeric('commissionValue', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.status] })],
);

/**
 * Listings per agent and status, kept by the same trigger as listing_totals. No foreign key: an
 * agent's row outlives the account until the trigger has moved its listings to no agent.
 */
export const agentListingTotals = pgTable(
  'agent_listing_totals',
  {
    agentId: uuid('agentId').notNull(),
    status: listingStatusEnum('status').notNull(),
    listings: integer('listings').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.status] })],
);

/**
 * How many available listings of a category carry each scalar attribute value, kept by the same
 * triggers, so the storefront's filter options read the values present instead of every listing.
 */
export const listingAttributeValues = pgTable(
  'listing_attribute_values',
  {
    categoryId: uuid('categoryId')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    field: text('field').notNull(),
    value: text('value').notNull(),
    listings: integer('listings').notNull(),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.field, t.value] })],
);

/**
 * What the storefront's search knows of its available listings, kept by the same trigger as
 * listing_totals (migrations 0017 and 0030), lower-cased in `term` (collated "C", so a word's
 * beginning is a range of the key), as first written in `text`, with how many available listings
 * carry it: each word of their search documents (`text`: any word of a title, attribute value or
 * description), each word of their titles, brands and models (`word`), and each whole title, brand
 * and model (`title`, `brand`, `model`). A query word is expanded against the words to the
 * shop's own words it begins, holds within a title or nearly spells; suggestions complete from the rest.
 */
export const searchTerms = pgTable(
  'search_terms',
  {
    kind: text('kind').$type<'text' | 'word' | 'title' | 'brand' | 'model'>().notNull(),
    term: text('term').notNull(),
    text: text('text').notNull(),
    listings: integer('listings').notNull(),
    /**
     * Held by at least 100 available listings (COMMON_WORD_LISTINGS): a near spelling's candidate.
     * Indexes name this, not the count, so a count that changes is a heap-only update.
     */
    common: boolean('common')
      .notNull()
      .generatedAlwaysAs((): SQL => sql`${searchTerms.listings} >= 100`),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.term] }),
    // Nearest common words by trigram distance (see COMMON_WORD_LISTINGS): a misspelt word's
    // candidates among the words descriptions share, without reading every word.
    index('search_terms_common_trgm_idx')
      .using('gist', t.term.op('gist_trgm_ops'))
      .where(sql`${t.kind} = 'text' and ${t.common}`),
    // Title, brand and model words holding what the shopper typed, and the nearest of them.
    index('search_terms_word_trgm_idx').using('gist', t.term.op('gist_trgm_ops')).where(sql`${t.kind} = 'word'`),
    // Suggestions with a word starting with what the shopper typed: ' ' || term holds ' ' and that
    // beginning, one pattern the index serves whether the word is the first or a later one.
    index('search_terms_suggestion_trgm_idx')
      .using('gin', sql`(' ' || ${t.term}) gin_trgm_ops`)
      .where(sql`${t.kind} in ('title', 'brand', 'model')`),
    // The same among those many listings carry (see COMMON_WORD_LISTINGS), read first: a beginning
    // thousands of titles hold finds its most carried completions among a few hundred.
    index('search_terms_common_suggestion_trgm_idx')
      .using('gin', sql`(' ' || ${t.term}) gin_trgm_ops`)
      .where(sql`${t.kind} in ('title', 'brand', 'model') and ${t.common}`),
  ],
);

/**
 * Stored images of listings removed for good whose files are still to be deleted: queued in the
 * transaction that removes the listing, and taken off once the files are gone. A process that dies
 * in between leaves them here, and the sweeper deletes them.
 */
export const imageRemovals = pgTable(
  'image_removals',
  {
    ref: text('ref').primaryKey(),
    queuedAt: timestamp('queuedAt', { precision: 3, withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('image_removals_queuedAt_idx').on(t.queuedAt)],
);

/**
 * A bulk load of listings not yet finished: the listings' indexes it set aside, by name, with their
 * definitions. Written in the transaction that sets them aside, and deleted in the one that ends
 * the load, once every index, trigger and kept count is back: a load stopped in between (a kill,
 * a full disk) is finished by the next command or server start (lib/listings/derived-data.ts).
 */
export const unfinishedBulkLoads = pgTable('unfinished_bulk_loads', {
  id: uuid('id').primaryKey().defaultRandom(),
  startedAt: timestamp('startedAt', { precision: 3, withTimezone: true }).notNull().defaultNow(),
  indexes: jsonb('indexes').$type<Array<{ name: string; definition: string }>>().notNull(),
});

/** Cached outside lookups (such as the bot's public profile) shared across instances. */
export const cacheEntries = pgTable('cache_entries', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  expiresAt: timestamp('expiresAt', { precision: 3, withTimezone: true }).notNull(),
});

/** A smaller copy of a photo: its true width and its reference (a stored file, or an image host delivery URL). */
export interface PhotoRendition {
  width: number;
  ref: string;
}

/**
 * What a stored listing photo's answers need beside its reference, worked out once at upload (or
 * by the backfill): its intrinsic size, a ThumbHash placeholder (standard base64) and its smaller
 * renditions, narrowest first. An image stored before photos were described has no row.
 */
export const photos = pgTable('photos', {
  ref: text('ref').primaryKey(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  placeholder: text('placeholder').notNull(),
  renditions: jsonb('renditions').$type<PhotoRendition[]>().notNull(),
  describedAt: timestamp('describedAt', { precision: 3, withTimezone: true }).notNull().defaultNow(),
});
/**
 * One entry per write by an administrator or agent, made in the write's own transaction: who, what,
 * and each changed field before and after (secrets masked). Kept `AUDIT_RETENTION_DAYS`.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { precision: 3, withTimezone: true }).notNull().defaultNow(),
    /** The actor as they were at the write; no foreign key, so the trail outlives a removed account. */
    actorId: uuid('actorId'),
    actorRole: roleEnum('actorRole'),
    actorEmail: text('actorEmail'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entityId'),
    changes: jsonb('changes').$type<Record<string, { before: unknown; after: unknown }>>().notNull().default({}),
    requestId: text('requestId'),
    ip: text('ip'),
  },
  // Newest first, alone or within one filter or a pair: each list reads its page straight from one index.
  (t) => [
    index('audit_entries_at_idx').on(t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_entries_entity_entityId_at_idx').on(t.entity, t.entityId, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_entries_entity_at_idx').on(t.entity, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_entries_actorId_at_idx').on(t.actorId, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_entries_action_at_idx').on(t.action, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Two filters that are each broad but rare together (an agent's sales, deletions of agents):
    // one index per pair keeps that page a range read instead of a walk through either filter.
    index('audit_entries_entity_action_at_idx').on(t.entity, t.action, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_entries_actorId_action_at_idx').on(t.actorId, t.action, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_entries_actorId_entity_at_idx').on(t.actorId, t.entity, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);
