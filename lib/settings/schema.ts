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

/** Settings that storefronts render as links: http(s) URLs or empty (D40), never `javascript:` and the like. */
const LINK_SETTINGS: readonly SettingKey[] = ['socialUrl1', 'socialUrl2', 'shopGoogleMapUrl'];

function isHttpUrlOrEmpty(value: string | null): boolean {
  if (!value) return true;
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

const LinkSettingValue = v.pipe(SettingValue, v.check(isHttpUrlOrEmpty, 'must be an http(s) URL or empty'));

/** A partial object of the known keys (D18): strings, or null to clear; any other key is refused. */
export const SettingsUpdateBody = v.strictObject(
  Object.fromEntries(SETTING_KEYS.map((key) => [key, v.optional(LINK_SETTINGS.includes(key) ? LinkSettingValue : SettingValue)])) as Record<
    SettingKey,
    v.OptionalSchema<typeof SettingValue, undefined>
  >,
  (issue) => (issue.expected === 'never' ? 'is not a known setting' : 'must be a JSON object'),
);
