import { inArray } from 'drizzle-orm/sql/expressions/conditions';
import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { settings } from '../db/schema.js';

/** The store settings the API knows, in the spec's order: exactly its twelve keys. */
export const SETTING_KEYS = [
  'siteName',
  'chatNumber',
  'callNumber1',
  'callNumber2',
  'messengerHandle',
  'contactEmail',
  'socialUrl1',
  'socialUrl2',
  'location',
  'businessHours',
  'shopGoogleMapUrl',
  'shopMapAddress',
] as const;

export type SettingKey = (typeof SETTING_KEYS)[number];
export type Settings = Record<SettingKey, string>;

/** A stored value as text: rows written elsewhere may hold any JSON, and a cleared key holds null. */
function settingText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Every setting in one query; a key without a row reads as `""`. */
export async function readSettings(executor: Executor): Promise<Settings> {
  const rows = await executor
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inArray(settings.key, [...SETTING_KEYS]));
  const stored = new Map(rows.map((row) => [row.key, settingText(row.value)]));
  return Object.fromEntries(SETTING_KEYS.map((key) => [key, stored.get(key) ?? ''])) as Settings;
}

/** Stored values of keys outside the spec's twelve (the original's, kept by adoption and its clients), `""` when absent. */
export async function readStoredSettings(executor: Executor, keys: readonly string[]): Promise<Record<string, string>> {
  const rows = await executor.select({ key: settings.key, value: settings.value }).from(settings).where(inArray(settings.key, [...keys]));
  const stored = new Map(rows.map((row) => [row.key, settingText(row.value)]));
  return Object.fromEntries(keys.map((key) => [key, stored.get(key) ?? '']));
}

/** Writes the given keys in one upsert; null clears a key. */
export async function writeSettings(executor: Executor, changes: Readonly<Record<string, string | null | undefined>>): Promise<void> {
  const rows = Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ({ key, value: value ?? null }));
  if (rows.length === 0) return;
  await executor
    .insert(settings)
    .values(rows)
    .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded."value"`, updatedAt: sql`now()` } });
}
