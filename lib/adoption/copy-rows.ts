import type { ColumnTypes } from './inspect.js';
import { CARRIED_USER_COLUMNS, ORIGINAL_PLATFORM, SOCIAL_COLUMNS, type OriginalTable } from './original-schema.js';
import { SIDE_SCHEMA, type OriginalTables } from './recognise.js';
import { RENAMED_SETTINGS } from '../settings/schema.js';

/**
 * The statements that copy the original's rows (moved to the side schema) into this schema's
 * tables, one per table, each converting what differs (see docs/adoption.md).
 */

const MESSENGER = 'MESSENGER';
export const UNFINISHED_POST_ERROR = 'Left unfinished by the original service';

const source = (table: OriginalTable) => `"${SIDE_SCHEMA}"."${table}"`;

/** Stored timestamps without a time zone hold UTC. */
function timestamp(columns: ColumnTypes, name: string, alias = ''): string {
  const column = `${alias}"${name}"`;
  return columns.get(name)?.endsWith('without time zone') ? `(${column} AT TIME ZONE 'UTC')` : column;
}

/** An image reference as this service keeps it: image-host URLs as they are, local files as `/uploads/<file>`. */
function imageRef(value: string): string {
  return `CASE WHEN ${value} ~* '^https?://' THEN ${value} ELSE '/uploads/' || regexp_replace(${value}, '^.*[/\\\\]', '') END`;
}

function usersCopy(columns: ColumnTypes): string {
  const carried = CARRIED_USER_COLUMNS.filter((column) => columns.has(column.name)).map((column) => `"${column.name}"`);
  // Custom socials were `{ key, value }`; entries of neither shape have no place and are left out.
  const customSocials = `coalesce((
      SELECT jsonb_agg(jsonb_build_object('name', coalesce(entry->>'name', entry->>'key'), 'url', coalesce(entry->>'url', entry->>'value')) ORDER BY position)
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof("customSocials") = 'array' THEN "customSocials" ELSE '[]'::jsonb END) WITH ORDINALITY AS social(entry, position)
      WHERE jsonb_typeof(entry) = 'object'
        AND coalesce(entry->>'name', entry->>'key') IS NOT NULL
        AND coalesce(entry->>'url', entry->>'value') IS NOT NULL
    ), '[]'::jsonb)`;
  const profileImage = `CASE WHEN nullif(btrim("profileImage"), '') IS NULL THEN NULL ELSE ${imageRef('"profileImage"')} END`;
  return `INSERT INTO "users" ("id", "email", "password", "name", "phone", "role", "profileImage",
      ${SOCIAL_COLUMNS.map((_, index) => `"social_${index + 1}"`).join(', ')}, "website", "customSocials",
      "passwordResetToken", "passwordResetExpires", "passwordResetAttempts", "tokensValidAfter", "createdAt", "updatedAt"${carried.map((column) => `, ${column}`).join('')})
    SELECT "id"::uuid, lower(btrim("email")), "password", "name", "phone", "role"::text::"Role", ${profileImage},
      ${SOCIAL_COLUMNS.map((column) => `"${column}"`).join(', ')}, "website", ${customSocials},
      NULL, NULL, 0, NULL, ${timestamp(columns, 'createdAt')}, ${timestamp(columns, 'updatedAt')}${carried.map((column) => `, ${column}`).join('')}
    FROM ${source('users')}`;
}

function categoriesCopy(columns: ColumnTypes): string {
  // Rules without `required` were optional in the original.
  const rules = `CASE WHEN jsonb_typeof("schemaRules") = 'array' THEN (
      SELECT coalesce(jsonb_agg(CASE WHEN jsonb_typeof(rule) = 'object' AND NOT rule ? 'required' THEN rule || '{"required": false}'::jsonb ELSE rule END ORDER BY position), '[]'::jsonb)
      FROM jsonb_array_elements("schemaRules") WITH ORDINALITY AS rules(rule, position)
    ) ELSE "schemaRules" END`;
  return `INSERT INTO "categories" ("id", "name", "displayName", "icon", "schemaRules", "createdAt", "updatedAt")
    SELECT "id"::uuid, "name", "displayName", "icon", ${rules}, ${timestamp(columns, 'createdAt')}, ${timestamp(columns, 'updatedAt')}
    FROM ${source('categories')}`;
}

function listingsCopy(columns: ColumnTypes): string {
  const images = `ARRAY(SELECT ${imageRef('ref')} FROM unnest("images") WITH ORDINALITY AS image(ref, position) WHERE nullif(btrim(ref), '') IS NOT NULL ORDER BY position)`;
  // Listings made before the original had stock read as in stock there, so they get a stock of 1.
  const stock = `CASE WHEN "status"::text IN ('AVAILABLE', 'PENDING') AND "stockQuantity" <= 0 THEN 1 ELSE greatest("stockQuantity", 0) END`;
  const inquiryClicks = columns.has('inquiryClicks') ? `coalesce("inquiryClicks", 0)` : '0';
  return `INSERT INTO "listings" ("id", "title", "description", "price", "status", "images", "attributes", "customTelegramCaption", "categoryId",
      "agentId", "viewsCount", "inquiryClicks", "stockQuantity", "commissionPercent", "createdAt", "updatedAt")
    SELECT "id"::uuid, "title", coalesce("description", ''), "price", "status"::text::"ListingStatus", ${images},
      CASE WHEN jsonb_typeof("attributes") = 'object' THEN "attributes" ELSE '{}'::jsonb END, "customTelegramCaption", "categoryId"::uuid,
      "agentId"::uuid, "viewsCount", ${inquiryClicks}, ${stock}, "commissionPercent", ${timestamp(columns, 'createdAt')}, ${timestamp(columns, 'updatedAt')}
    FROM ${source('listings')}`;
}

function syndicationConfigsCopy(columns: ColumnTypes): string {
  // The original's one channel config becomes the MESSENGER config, unless a MESSENGER row is there already.
  const platform = `CASE WHEN "platform" = '${ORIGINAL_PLATFORM}' AND NOT EXISTS (SELECT 1 FROM ${source('syndication_configs')} WHERE "platform" = '${MESSENGER}')
      THEN '${MESSENGER}' ELSE "platform" END`;
  return `INSERT INTO "syndication_configs" ("id", "platform", "botToken", "channelId", "apiKey", "apiSecret", "isActive", "extraConfig", "createdAt", "updatedAt")
    SELECT "id"::uuid, ${platform}, "botToken", "channelId", "apiKey", "apiSecret", "isActive", "extraConfig",
      ${timestamp(columns, 'createdAt')}, ${timestamp(columns, 'updatedAt')}
    FROM ${source('syndication_configs')}`;
}

function syndicationLogsCopy(columns: ColumnTypes): string {
  // A post the original left PENDING never finished; as PENDING the sweeper would post it now, months late.
  const pending = `"status"::text = 'PENDING'`;
  return `INSERT INTO "syndication_logs" ("id", "listingId", "platform", "status", "action", "channelInfo", "messageId", "postMessageIds",
      "errorMessage", "runAt", "attempt", "retryAt")
    SELECT "id"::uuid, "listingId"::uuid, CASE WHEN "platform" = '${ORIGINAL_PLATFORM}' THEN '${MESSENGER}' ELSE "platform" END,
      (CASE WHEN ${pending} THEN 'FAILED' ELSE "status"::text END)::"SyndicationStatus", "action"::text::"SyndicationAction",
      "channelInfo", "messageId", NULL, CASE WHEN ${pending} THEN coalesce("errorMessage", '${UNFINISHED_POST_ERROR}') ELSE "errorMessage" END,
      ${timestamp(columns, 'runAt')}, 1, NULL
    FROM ${source('syndication_logs')}`;
}

function notificationsCopy(columns: ColumnTypes): string {
  return `INSERT INTO "notifications" ("id", "userId", "title", "body", "type", "data", "isRead", "createdAt")
    SELECT "id"::uuid, "userId"::uuid, "title", "body", "type", "data", "isRead", ${timestamp(columns, 'createdAt')}
    FROM ${source('notifications')}`;
}

function agentCodesCopy(columns: ColumnTypes): string {
  // The original kept no use count: a used code was used once; one of a creator who is gone goes with them, as here.
  return `INSERT INTO "agent_codes" ("id", "code", "createdById", "agentName", "agentPhone", "role", "isUsed", "usedById", "maxUses", "useCount",
      "revokedAt", "expiresAt", "createdAt")
    SELECT code."id"::uuid, code."code", creator."id"::uuid, coalesce(code."agentName", ''), coalesce(code."agentPhone", ''), 'AGENT',
      code."isUsed", used."id"::uuid, 1, CASE WHEN code."isUsed" THEN 1 ELSE 0 END,
      NULL, ${timestamp(columns, 'expiresAt', 'code.')}, ${timestamp(columns, 'createdAt', 'code.')}
    FROM ${source('agent_codes')} AS code
    JOIN ${source('users')} AS creator ON creator."id"::text = code."createdById"::text
    LEFT JOIN ${source('users')} AS used ON used."id"::text = code."usedById"::text`;
}

function settingsCopy(columns: ColumnTypes): string {
  // The original's names of spec keys take the spec's name, unless a row has that name already.
  const renames = Object.entries(RENAMED_SETTINGS)
    .map(([from, to]) => `WHEN "key" = '${from}' AND NOT EXISTS (SELECT 1 FROM ${source('settings')} WHERE "key" = '${to}') THEN '${to}'`)
    .join(' ');
  return `INSERT INTO "settings" ("key", "value", "updatedAt")
    SELECT CASE ${renames} ELSE "key" END, "value", ${timestamp(columns, 'updatedAt')}
    FROM ${source('settings')}`;
}

const COPIES: Record<OriginalTable, (columns: ColumnTypes) => string> = {
  users: usersCopy,
  categories: categoriesCopy,
  listings: listingsCopy,
  syndication_configs: syndicationConfigsCopy,
  syndication_logs: syndicationLogsCopy,
  notifications: notificationsCopy,
  agent_codes: agentCodesCopy,
  settings: settingsCopy,
};

/** Tables in the order their rows can be copied (referenced before referencing). */
export const COPY_ORDER: readonly OriginalTable[] = [
  'users',
  'categories',
  'listings',
  'syndication_configs',
  'syndication_logs',
  'notifications',
  'agent_codes',
  'settings',
];

/** The copy statement of each of the original's tables present, in copy order. */
export function copyStatements(tables: OriginalTables): Array<{ table: OriginalTable; statement: string }> {
  return COPY_ORDER.flatMap((table) => {
    const columns = tables.get(table);
    return columns ? [{ table, statement: COPIES[table](columns) }] : [];
  });
}

/** Adds to this schema's `users` the original's columns it keeps (stored, never served), before the rows are copied. */
export function carriedColumnsStatement(tables: OriginalTables): string | undefined {
  const columns = tables.get('users');
  const carried = CARRIED_USER_COLUMNS.filter((column) => columns?.has(column.name));
  if (carried.length === 0) return undefined;
  return `ALTER TABLE "users" ${carried.map((column) => `ADD COLUMN "${column.name}" ${column.definition}`).join(', ')}`;
}
