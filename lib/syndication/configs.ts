import { eq } from 'drizzle-orm/sql/expressions/conditions';
import { asc } from 'drizzle-orm/sql/expressions/select';
import { sql } from 'drizzle-orm/sql/sql';
import { config } from '../config.js';
import type { Executor } from '../db/client.js';
import { syndicationConfigs } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';

export const MESSENGER = 'MESSENGER';

export type ConfigRow = typeof syndicationConfigs.$inferSelect;

/** Where the bot and channel in use come from: a stored config, or the environment defaults. */
export type ConfigSource = 'database' | 'environment';

/** The bot and channel that listings are posted with. */
export interface MessengerTarget {
  botToken: string;
  channelId: string;
}

/** The `MESSENGER` config made of `MESSENGER_BOT_TOKEN`/`MESSENGER_CHANNEL_ID`, shown while no row exists. */
export interface EnvironmentConfig {
  platform: typeof MESSENGER;
  botToken: string | null;
  channelId: string | null;
}

export async function listConfigRows(executor: Executor): Promise<ConfigRow[]> {
  return executor.select().from(syndicationConfigs).orderBy(asc(syndicationConfigs.platform));
}

export async function findConfigRow(executor: Executor, platform: string): Promise<ConfigRow | undefined> {
  const [row] = await executor.select().from(syndicationConfigs).where(eq(syndicationConfigs.platform, platform)).limit(1);
  return row;
}

export function environmentConfig(): EnvironmentConfig | undefined {
  const { messengerBotToken, messengerChannelId } = config();
  if (!messengerBotToken && !messengerChannelId) return undefined;
  return { platform: MESSENGER, botToken: messengerBotToken ?? null, channelId: messengerChannelId ?? null };
}

export interface ConfigChanges {
  botToken?: string | null;
  channelId?: string | null;
  isActive?: boolean;
}

/** Creates the platform's config or changes the given fields of it, in one statement. */
export async function upsertConfigRow(executor: Executor, platform: string, changes: ConfigChanges): Promise<ConfigRow> {
  const set: Record<string, unknown> = { updatedAt: sql`now()` };
  if (changes.botToken !== undefined) set.botToken = changes.botToken;
  if (changes.channelId !== undefined) set.channelId = changes.channelId;
  if (changes.isActive !== undefined) set.isActive = changes.isActive;
  const [row] = await executor
    .insert(syndicationConfigs)
    .values({ platform, ...changes })
    .onConflictDoUpdate({ target: syndicationConfigs.platform, set })
    .returning();
  return row!;
}

/** Deletes the platform's config, answering the row as it was (undefined when there was none). */
export async function deleteConfigRow(executor: Executor, platform: string): Promise<ConfigRow | undefined> {
  const [deleted] = await executor.delete(syndicationConfigs).where(eq(syndicationConfigs.platform, platform)).returning();
  return deleted;
}

/** The messenger bot and channel as configured, whether posting is on or not. */
export interface MessengerSettings {
  botToken: string | null;
  channelId: string | null;
  isActive: boolean;
}

/**
 * The stored `MESSENGER` config when one exists, else the environment defaults. A stored
 * config wins even when switched off, so switching it off stops posting whatever the environment says.
 */
export async function messengerSettings(executor: Executor): Promise<MessengerSettings | undefined> {
  const row = await findConfigRow(executor, MESSENGER);
  if (row) return { botToken: row.botToken, channelId: row.channelId, isActive: row.isActive };
  const env = environmentConfig();
  return env && { botToken: env.botToken, channelId: env.channelId, isActive: true };
}

function targetOf(settings: MessengerSettings | undefined): MessengerTarget | undefined {
  if (!settings?.botToken || !settings.channelId) return undefined;
  return { botToken: settings.botToken, channelId: settings.channelId };
}

/** The bot and channel listings are posted with; undefined while posting is off or incomplete. */
export async function activeMessengerTarget(executor: Executor): Promise<MessengerTarget | undefined> {
  const settings = await messengerSettings(executor);
  return settings?.isActive ? targetOf(settings) : undefined;
}

export async function activeMessengerTargetOrThrow(executor: Executor): Promise<MessengerTarget> {
  const target = await activeMessengerTarget(executor);
  if (!target) throw ApiError.of('NOT_CONFIGURED', 'Channel posting is not configured: no active MESSENGER config with a bot token and channel id');
  return target;
}

/** The configured bot and channel, for managing the channel even while posting is switched off. */
export async function messengerChannelOrThrow(executor: Executor): Promise<MessengerTarget> {
  const target = targetOf(await messengerSettings(executor));
  if (!target) throw ApiError.of('NOT_CONFIGURED', 'The messenger channel is not configured: set a MESSENGER bot token and channel id');
  return target;
}

/** The configured bot token, whether posting is on or not. */
export async function messengerBotToken(executor: Executor): Promise<string | undefined> {
  return (await messengerSettings(executor))?.botToken ?? undefined;
}
