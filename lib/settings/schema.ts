import * as v from 'valibot';
import { SETTING_KEYS, type SettingKey } from './queries.js';

export const MAX_SETTING_LENGTH = 2000;

const SettingValue = v.nullable(
  v.pipe(
    v.string('must be a string or null'),
    v.trim(),
    v.maxLength(MAX_SETTING_LENGTH, `must be at most ${MAX_SETTING_LENGTH} characters`),
  ),
);

/** Settings that storefronts render as links: http(s) URLs or empty (400 otherwise), never `javascript:` and the like. */
const LINK_SETTINGS: readonly SettingKey[] = ['socialUrl1', 'socialUrl2', 'shopGoogleMapUrl'];

function isHttpUrlOrEmpty(value: string | null): boolean {
  if (!value) return true;
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

const LinkSettingValue = v.pipe(SettingValue, v.check(isHttpUrlOrEmpty, 'must be an http(s) URL or empty'));

/**
 * The original service's names for spec settings, accepted on writes
 * (deprecated) and stored under the spec's name; the spec's name wins when both come.
 */
export const RENAMED_SETTINGS = { whatsappNumber: 'chatNumber', telegramHandle: 'messengerHandle', facebookUrl: 'socialUrl1', instagramUrl: 'socialUrl2' } as const;
type RenamedSetting = keyof typeof RENAMED_SETTINGS;

/** The original's settings with no spec key: stored as sent, never served: answers carry the spec's keys only. */
export const STORED_ONLY_SETTINGS = ['tiktokUrl', 'youtubeUrl', 'adminTelegramUsername', 'miniAppUrl'] as const;
const STORED_ONLY_LINKS: readonly string[] = ['tiktokUrl', 'youtubeUrl', 'miniAppUrl'];

const valueFor = (key: string) => v.optional(LINK_SETTINGS.includes(key as SettingKey) || STORED_ONLY_LINKS.includes(key) ? LinkSettingValue : SettingValue);

type SettingChanges = Partial<Record<SettingKey | (typeof STORED_ONLY_SETTINGS)[number], string | null>>;

/**
 * A partial object of the known keys: strings, or null to clear; the original's names are
 * taken too (above); any other key is refused.
 */
export const SettingsUpdateBody = v.pipe(
  v.strictObject(
    Object.fromEntries(
      [...SETTING_KEYS, ...(Object.keys(RENAMED_SETTINGS) as RenamedSetting[]), ...STORED_ONLY_SETTINGS].map((key) => [
        key,
        valueFor(key in RENAMED_SETTINGS ? RENAMED_SETTINGS[key as RenamedSetting] : key),
      ]),
    ) as Record<string, ReturnType<typeof valueFor>>,
    (issue) => (issue.expected === 'never' ? 'is not a known setting' : 'must be a JSON object'),
  ),
  v.transform((body): SettingChanges => {
    const changes: Record<string, string | null | undefined> = {};
    for (const [key, value] of Object.entries(body)) {
      if (value === undefined) continue;
      const target = key in RENAMED_SETTINGS ? RENAMED_SETTINGS[key as RenamedSetting] : key;
      if (target !== key && body[target] !== undefined) continue;
      changes[target] = value;
    }
    return changes as SettingChanges;
  }),
);
