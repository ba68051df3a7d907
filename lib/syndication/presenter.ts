import type { syndicationLogs } from '../db/schema.js';
import type { ConfigRow, EnvironmentConfig } from './configs.js';
import type { ConfigView, LogView } from './view.js';

const MASK = '••••••••';

/** A secret shown by its last 4 characters only, in every answer; a short one is not shown at all. */
export function maskSecret(secret: string | null): string | null {
  if (!secret) return null;
  return secret.length > 8 ? `${MASK}${secret.slice(-4)}` : MASK;
}

export function configPresenter(row: ConfigRow): ConfigView {
  return {
    id: row.id,
    platform: row.platform,
    botToken: maskSecret(row.botToken),
    channelId: row.channelId,
    apiKey: maskSecret(row.apiKey),
    apiSecret: maskSecret(row.apiSecret),
    isActive: row.isActive,
    extraConfig: row.extraConfig,
    source: 'database',
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The environment defaults shown as the `MESSENGER` config while no row exists. */
export function environmentConfigPresenter(env: EnvironmentConfig): ConfigView {
  return {
    id: null,
    platform: env.platform,
    botToken: maskSecret(env.botToken),
    channelId: env.channelId,
    apiKey: null,
    apiSecret: null,
    isActive: Boolean(env.botToken && env.channelId),
    extraConfig: null,
    source: 'environment',
    createdAt: null,
    updatedAt: null,
  };
}

export type LogRow = typeof syndicationLogs.$inferSelect;

export function logPresenter(row: LogRow, listing: { id: string; title: string }): LogView {
  return {
    id: row.id,
    listingId: row.listingId,
    platform: row.platform,
    status: row.status,
    action: row.action,
    channelInfo: row.channelInfo,
    messageId: row.messageId,
    errorMessage: row.errorMessage,
    runAt: row.runAt,
    listing: { id: listing.id, title: listing.title },
  };
}
