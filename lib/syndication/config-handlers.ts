import { changesBetween } from '../audit/changes.js';
import { recordAudit, type AuditSource } from '../audit/record.js';
import { getDb, type Executor } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { ApiError } from '../http/api-error.js';
import { invalidateEdgeCache, type CacheTag } from '../http/edge-cache.js';
import { created, ok, type DataReply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import {
  deleteConfigRow,
  environmentConfig,
  findConfigRow,
  listConfigRows,
  MESSENGER,
  upsertConfigRow,
  type ConfigChanges,
  type ConfigRow,
} from './configs.js';
import { configPresenter, environmentConfigPresenter, maskSecret } from './presenter.js';
import type { ConfigInput } from './schema.js';
import type { ConfigDeletedView, ConfigView } from './view.js';

/** Every stored config, plus the environment-backed `MESSENGER` config while no row replaces it. */
export async function listConfigs(): Promise<DataReply<ConfigView[]>> {
  const rows = await listConfigRows(await getDb());
  const views = rows.map(configPresenter);
  const env = environmentConfig();
  if (env && !rows.some((row) => row.platform === MESSENGER)) views.push(environmentConfigPresenter(env));
  return ok(views.sort((a, b) => a.platform.localeCompare(b.platform)));
}

export async function getConfig({ params }: { params: { platform: string } }): Promise<DataReply<ConfigView>> {
  const row = await findConfigRow(await getDb(), params.platform);
  if (row) return ok(configPresenter(row));
  const env = params.platform === MESSENGER ? environmentConfig() : undefined;
  if (env) return ok(environmentConfigPresenter(env));
  throw ApiError.notFound(`Syndication config for platform "${params.platform}" not found`);
}

/**
 * A secret as sent: a masked value equal to the current secret's mask keeps that secret (clients
 * send back what they were shown); any other masked value is refused rather than stored.
 */
function secretToStore(field: string, sent: string | null | undefined, current: string | null | undefined): string | null | undefined {
  if (sent === undefined || sent === null || !sent.startsWith('•')) return sent;
  if (current && sent === maskSecret(current)) return current;
  throw ApiError.badRequest(`Invalid request body: ${field}: a masked value can only keep the stored secret; send the full value`, [
    { field, message: 'a masked value can only keep the stored secret; send the full value' },
  ]);
}

const AUDITED_FIELDS = ['platform', 'botToken', 'channelId', 'apiKey', 'apiSecret', 'isActive'] as const;

/** A config's audit entry names it by its platform, as its routes do; its secrets are masked. */
function recordConfigAudit(tx: Executor, source: AuditSource, action: string, before: ConfigRow | null, after: ConfigRow | null): Promise<void> {
  const platform = (after ?? before)!.platform;
  return recordAudit(tx, source, { action, entity: 'syndication-config', entityId: platform, changes: changesBetween(before, after, AUDITED_FIELDS) });
}

/** The storefront shows the `MESSENGER` config's bot; no other platform's config shows publicly. */
function cacheTagsOfConfig(platform: string): CacheTag[] {
  return platform === MESSENGER ? ['messenger-bot'] : [];
}

/** Creates the platform's config, or updates the fields sent (a masked secret sent back unchanged keeps the stored one). */
export async function saveConfig({ body }: { body: ConfigInput }, ctx: RequestContext<'admin'>): Promise<DataReply<ConfigView>> {
  const db = await getDb();
  const { existing, row } = await inTransaction(db, (tx) => writeConfig(tx, ctx, body));
  await invalidateEdgeCache(cacheTagsOfConfig(body.platform));
  return existing ? ok(configPresenter(row)) : created(configPresenter(row));
}

async function writeConfig(tx: Executor, source: AuditSource, body: ConfigInput): Promise<{ existing: ConfigRow | undefined; row: ConfigRow }> {
  const existing = await findConfigRow(tx, body.platform);
  // The environment defaults stand in for a missing MESSENGER row, so their masked token round-trips too.
  const currentToken = existing ? existing.botToken : body.platform === MESSENGER ? environmentConfig()?.botToken : undefined;
  const changes: ConfigChanges = {
    botToken: secretToStore('botToken', body.botToken, currentToken),
    channelId: body.channelId,
    isActive: body.isActive,
  };
  if (!existing) {
    const missing = (['botToken', 'channelId'] as const).filter((field) => !changes[field]);
    if (missing.length > 0) throw ApiError.badRequest(`Missing required fields: ${missing.join(', ')}`, missing.map((field) => ({ field, message: 'is required to create a config' })));
  }
  const row = await upsertConfigRow(tx, body.platform, changes);
  await recordConfigAudit(tx, source, existing ? 'update' : 'create', existing ?? null, row);
  return { existing, row };
}

export async function deleteConfig({ params }: { params: { platform: string } }, ctx: RequestContext<'admin'>): Promise<DataReply<ConfigDeletedView>> {
  await inTransaction(await getDb(), async (tx) => {
    const deleted = await deleteConfigRow(tx, params.platform);
    if (!deleted) throw ApiError.notFound(`Syndication config for platform "${params.platform}" not found`);
    await recordConfigAudit(tx, ctx, 'delete', deleted, null);
  });
  await invalidateEdgeCache(cacheTagsOfConfig(params.platform));
  return ok({ platform: params.platform });
}
