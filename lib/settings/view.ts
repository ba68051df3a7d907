import * as v from 'valibot';
import { SETTING_KEYS } from './queries.js';
import { STORED_ONLY_SETTINGS, RENAMED_SETTINGS } from './schema.js';

const EXAMPLES: Record<string, string> = { siteName: 'Bros Technology', chatNumber: '+251911234567', messengerHandle: 'brostech' };

const legacyOnly = (key: string) =>
  [key, v.optional(v.pipe(v.string(), v.description('With LEGACY_CLIENT_FIELDS=1 only: the original service\'s name for a setting, or a setting it kept.')))] as const;

/** The spec's keys, unset ones `""`; with LEGACY_CLIENT_FIELDS=1 the original's names too. */
export const SettingsView = v.pipe(
  v.object({
    ...Object.fromEntries(SETTING_KEYS.map((key) => [key, EXAMPLES[key] ? v.pipe(v.string(), v.examples([EXAMPLES[key]])) : v.string()])),
    ...Object.fromEntries([...Object.keys(RENAMED_SETTINGS), ...STORED_ONLY_SETTINGS].map(legacyOnly)),
  }),
  v.title('Settings'),
);

export type SettingsView = v.InferOutput<typeof SettingsView>;
