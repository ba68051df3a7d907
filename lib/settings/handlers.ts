import { getDb } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { ok, type Reply } from '../http/reply.js';
import type { Input } from '../http/route.js';
import { readSettings, writeSettings } from './queries.js';
import type { SettingsUpdateBody } from './schema.js';

export async function getSettings(): Promise<Reply> {
  return ok(await readSettings(await getDb()));
}

export async function updateSettings({ body }: Input<{ body: typeof SettingsUpdateBody }>): Promise<Reply> {
  const db = await getDb();
  const current = await inTransaction(db, async (tx) => {
    await writeSettings(tx, body);
    return readSettings(tx);
  });
  return ok(current);
}
