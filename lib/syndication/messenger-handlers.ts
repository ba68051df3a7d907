import crypto from 'node:crypto';
import { config } from '../config.js';
import { getDb } from '../db/client.js';
import { ApiError } from '../http/api-error.js';
import { acknowledged, ok, type AcknowledgementReply, type DataReply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import { secretMatches } from '../http/shared-secret.js';
import { readCached, writeCached } from './cache.js';
import { ChannelError } from './channel-error.js';
import { messengerBotToken, messengerChannelOrThrow } from './configs.js';
import type { MessengerInfoView, PublicBotView, WebhookView } from './view.js';

const BOT_PROFILE_TTL_SECONDS = 600;

/** A Bot API failure as the 502 envelope; the message never holds the token. */
function badGateway(error: unknown): never {
  if (error instanceof ChannelError) throw new ApiError(502, error.message);
  throw error;
}

async function botTokenOrThrow(): Promise<string> {
  const token = await messengerBotToken(await getDb());
  if (!token) throw ApiError.of('NOT_CONFIGURED', 'The messenger bot is not configured: set a MESSENGER bot token');
  return token;
}

export async function messengerInfo(): Promise<DataReply<MessengerInfoView>> {
  const target = await messengerChannelOrThrow(await getDb());
  const { fetchMessengerInfo } = await import('./bot-info.js');
  return ok(await fetchMessengerInfo(target.botToken, target.channelId).catch(badGateway));
}

/** Cache key per bot: a changed token never serves the previous bot's profile. */
function botProfileKey(token: string): string {
  return `messenger-bot:${crypto.createHash('sha256').update(token).digest('hex').slice(0, 32)}`;
}

interface PublicBot {
  id: number;
  first_name: string;
  username: string;
  link: string;
}

/**
 * The fields in one order, whether the profile was just fetched or read back from the cache (which
 * keeps JSON in its own key order): one answer, one encoding, one ETag.
 */
function publicBotPresenter(bot: PublicBot): PublicBot {
  return { id: bot.id, first_name: bot.first_name, username: bot.username, link: bot.link };
}

/** The bot's public profile for the storefront, cached across instances for 10 minutes. */
export async function publicMessengerBot(): Promise<DataReply<PublicBotView>> {
  const db = await getDb();
  const token = await messengerBotToken(db);
  if (!token) throw ApiError.notFound('Messenger bot is not configured');
  const key = botProfileKey(token);
  const cached = await readCached<PublicBot>(db, key);
  if (cached) return ok(publicBotPresenter(cached));
  const { fetchBotProfile } = await import('./bot-info.js');
  const profile = await fetchBotProfile(token).catch(badGateway);
  const bot: PublicBot = { ...profile, link: `https://t.me/${profile.username}` };
  await writeCached(db, key, bot, BOT_PROFILE_TTL_SECONDS);
  return ok(publicBotPresenter(bot));
}

/**
 * The secret the Bot API sends with every webhook call: `MESSENGER_WEBHOOK_SECRET`, else
 * derived from the bot token, so every instance knows it without storing anything and it changes
 * with the bot.
 */
function webhookSecret(token: string): string {
  return config().messengerWebhookSecret ?? crypto.createHmac('sha256', 'messenger-webhook').update(token).digest('hex');
}

export async function setupWebhook(): Promise<DataReply<WebhookView>> {
  const token = await botTokenOrThrow();
  const url = `${config().apiBaseUrl}/api/syndication/messenger/webhook`;
  const { registerWebhook } = await import('./bot-info.js');
  return ok(await registerWebhook(token, url, webhookSecret(token)).catch(badGateway));
}

export async function webhookInfo(): Promise<DataReply<WebhookView>> {
  const token = await botTokenOrThrow();
  const { fetchWebhookInfo } = await import('./bot-info.js');
  return ok(await fetchWebhookInfo(token).catch(badGateway));
}

/**
 * The inbound webhook (spec, Events): it acknowledges and does nothing. Once a bot is configured,
 * only a call carrying the secret registered by setup-webhook is acknowledged: the header is
 * compared in constant time, and anyone else gets 401.
 */
export async function receiveWebhook(_input: unknown, ctx: RequestContext<'public'>): Promise<AcknowledgementReply> {
  const token = await messengerBotToken(await getDb());
  if (token) {
    if (!secretMatches(ctx.request.headers['x-telegram-bot-api-secret-token'], webhookSecret(token))) throw ApiError.unauthorized('Invalid webhook secret');
  }
  return acknowledged();
}
