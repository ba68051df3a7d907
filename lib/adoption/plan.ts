import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { RENAMED_SETTINGS, STORED_ONLY_SETTINGS } from '../settings/schema.js';
import { SETTING_KEYS } from '../settings/queries.js';
import { CARRIED_USER_COLUMNS, ORIGINAL_PLATFORM, type OriginalTable } from './original-schema.js';
import { COPY_ORDER } from './copy-rows.js';
import { queryRows } from '../db/query-rows.js';
import type { OriginalTables } from './recognise.js';

/** What adoption does with one of the original's tables: its rows, and each change worth knowing. */
export interface TablePlan {
  table: OriginalTable;
  /** Rows in the original; undefined when the table does not exist there. */
  rows: number | undefined;
  notes: string[];
}

async function countWhere(executor: Executor, table: OriginalTable, condition: string): Promise<number> {
  const [row] = await queryRows<{ count: string | number }>(executor, sql.raw(`select count(*) as count from "${table}" where ${condition}`));
  return Number(row?.count ?? 0);
}

type NoteMaker = (count: (condition: string) => Promise<number>, tables: OriginalTables) => Promise<string[]>;

/** A note about `count` rows, when there are any: `{n}` is the count, `(one|many)` the word for it. */
const when = (count: number, note: string): string[] =>
  count > 0 ? [note.replace('{n}', count.toLocaleString('en-US')).replace(/\(([^()|]*)\|([^()|]*)\)/g, (_, one: string, many: string) => (count === 1 ? one : many))] : [];

const knownSettingKeys = [...SETTING_KEYS, ...Object.keys(RENAMED_SETTINGS)].map((key) => `'${key}'`).join(', ');

const NOTES: Record<OriginalTable, NoteMaker> = {
  users: async (count, tables) => [
    'socials facebook .. youtube move to social_1 .. social_8; custom socials { key, value } become { name, url }; password hashes are kept',
    ...when(await count(`"email" <> lower(btrim("email"))`), '{n} e-mail (address is|addresses are) lower-cased'),
    ...when(await count(`"passwordResetToken" IS NOT NULL`), '{n} pending reset (code|codes), stored in plain text, (is|are) dropped'),
    ...when(
      CARRIED_USER_COLUMNS.filter((column) => tables.get('users')?.has(column.name)).length,
      'the original bot columns (telegram*) are kept in users and never served',
    ),
  ],
  categories: async (count) => when(await count(`jsonb_typeof("schemaRules") = 'array' AND EXISTS (SELECT 1 FROM jsonb_array_elements("schemaRules") AS rule WHERE jsonb_typeof(rule) = 'object' AND NOT rule ? 'required')`), '{n} (category has|categories have) rules without "required", which become required: false'),
  listings: async (count, tables) => [
    ...when(await count(`"status"::text IN ('AVAILABLE', 'PENDING') AND "stockQuantity" <= 0`), '{n} available or pending (listing|listings) with stock 0 (gets|get) stock 1'),
    ...when(await count(`EXISTS (SELECT 1 FROM unnest("images") AS ref WHERE ref !~* '^https?://')`), '{n} (listing has|listings have) local images: their paths become /uploads/<file>'),
    ...(tables.get('listings')?.has('inquiryClicks') ? [] : ['the original has no inquiryClicks column: inquiry counts start at 0']),
    'the totals and filter options this service keeps (listing_totals, listing_attribute_values) are built from them',
  ],
  syndication_configs: async (count) => when(await count(`"platform" = '${ORIGINAL_PLATFORM}'`), `{n} (config|configs) of platform ${ORIGINAL_PLATFORM} (becomes|become) MESSENGER (the bot token stays masked in every answer)`),
  syndication_logs: async (count) => [
    ...when(await count(`"platform" = '${ORIGINAL_PLATFORM}'`), `{n} (entry|entries) of platform ${ORIGINAL_PLATFORM} (becomes|become) MESSENGER, message ids kept`),
    ...when(await count(`"status"::text = 'PENDING'`), '{n} (entry|entries) the original left PENDING (becomes|become) FAILED, so (it is|they are) never posted late'),
  ],
  notifications: async () => [],
  agent_codes: async (count) => [
    'codes get maxUses 1 and a use count of 1 when used, 0 when not',
    ...when(await count(`NOT "isUsed" AND "expiresAt" > now() AT TIME ZONE 'UTC'`), '{n} unused unexpired (code still registers|codes still register) an agent'),
    ...when(await count(`NOT EXISTS (SELECT 1 FROM "users" WHERE "users"."id"::text = "agent_codes"."createdById"::text)`), '{n} (code|codes) whose creator no longer exists (is|are) dropped'),
  ],
  settings: async (count) => [
    ...when(await count(`"key" IN (${Object.keys(RENAMED_SETTINGS).map((key) => `'${key}'`).join(', ')})`), `{n} (key takes|keys take) the spec's names (${Object.entries(RENAMED_SETTINGS).map(([from, to]) => `${from} -> ${to}`).join(', ')})`),
    ...when(await count(`"key" NOT IN (${knownSettingKeys})`), `{n} other (key is|keys are) kept and never served (such as ${STORED_ONLY_SETTINGS.join(', ')})`),
  ],
};

/** Reads, without changing anything, what adoption will do with each of the original's tables. */
export async function planAdoption(executor: Executor, tables: OriginalTables): Promise<TablePlan[]> {
  const plans: TablePlan[] = [];
  for (const table of COPY_ORDER) {
    if (!tables.has(table)) {
      plans.push({ table, rows: undefined, notes: ['absent in the original: created empty'] });
      continue;
    }
    const count = (condition: string) => countWhere(executor, table, condition);
    plans.push({ table, rows: await count('true'), notes: await NOTES[table](count, tables) });
  }
  return plans;
}
