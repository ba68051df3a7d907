import { config } from '../config.js';
import { getDb, type Executor } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { invalidateEdgeCache } from '../http/edge-cache.js';
import { ok, type Reply } from '../http/reply.js';
import type { Input } from '../http/route.js';
import { readSettings, readStoredSettings, writeSettings, type Settings } from './queries.js';
import { KEPT_SETTINGS, RENAMED_SETTINGS, type SettingsUpdateBody } from './schema.js';

/**
 * The spec's twelve keys; with LEGACY_CLIENT_FIELDS on, also the original's names for them and its
 * kept keys (D38), for its old admin panel and storefront.
 */
async function settingsView(executor: Executor, current: Settings): Promise<Record<string, string>> {
  if (!config().legacyClientFields) return current;
  const renamed = Object.fromEntries(Object.entries(RENAMED_SETTINGS).map(([legacy, key]) => [legacy, current[key]]));
  return { ...current, ...renamed, ...(await readStoredSettings(executor, KEPT_SETTINGS)) };
}

export async function getSettings(): Promise<Reply> {
  const db = await getDb();
  return ok(await settingsView(db, await readSettings(db)));
}

export async function updateSettings({ body }: Input<{ body: typeof SettingsUpdateBody }>): Promise<Reply> {
  const db = await getDb();
  const current = await inTransaction(db, async (tx) => {
    await writeSettings(tx, body);
    return settingsView(tx, await readSettings(tx));
  });
  await invalidateEdgeCache(['settings']);
  return ok(current);
}
