import { changesBetween } from '../audit/changes.js';
import { recordAudit } from '../audit/record.js';
import { config } from '../config.js';
import { getDb, type Executor } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { invalidateEdgeCache } from '../http/edge-cache.js';
import { ok, type DataReply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import type { Input } from '../http/endpoint-input.js';
import { readSettings, readStoredSettings, writeSettings, type Settings } from './queries.js';
import { STORED_ONLY_SETTINGS, RENAMED_SETTINGS, type SettingsUpdateBody } from './schema.js';
import type { SettingsView } from './view.js';

/**
 * The spec's twelve keys; with LEGACY_CLIENT_FIELDS on, also the original's names for them and its
 * kept keys, for its old admin panel and storefront.
 */
async function settingsView(executor: Executor, current: Settings): Promise<Record<string, string>> {
  if (!config().legacyClientFields) return current;
  const renamed = Object.fromEntries(Object.entries(RENAMED_SETTINGS).map(([legacy, key]) => [legacy, current[key]]));
  return { ...current, ...renamed, ...(await readStoredSettings(executor, STORED_ONLY_SETTINGS)) };
}

export async function getSettings(): Promise<DataReply<SettingsView>> {
  const db = await getDb();
  return ok(await settingsView(db, await readSettings(db)));
}

export async function updateSettings({ body }: Input<{ body: typeof SettingsUpdateBody }>, ctx: RequestContext<'admin'>): Promise<DataReply<SettingsView>> {
  const db = await getDb();
  const current = await inTransaction(db, async (tx) => {
    const before = await readSettings(tx);
    await writeSettings(tx, body);
    const after = await readSettings(tx);
    const changes = changesBetween(before, after, Object.keys(after));
    if (Object.keys(changes).length > 0) await recordAudit(tx, ctx, { action: 'update', entity: 'settings', entityId: null, changes });
    return settingsView(tx, after);
  });
  await invalidateEdgeCache(['settings']);
  return ok(current);
}
