import { botClient } from './bot-client.js';

export interface BotProfile {
  id: number;
  first_name: string;
  username: string;
}

/** The bot's public profile. */
export async function fetchBotProfile(botToken: string): Promise<BotProfile> {
  const me = await botClient(botToken).call('getMe', (api) => api.getMe());
  return { id: me.id, first_name: me.first_name, username: me.username };
}

/**
 * The bot and its channel as shown to signed-in users. Photos are left out: the Bot API serves
 * files only at URLs that contain the token, which is never shown.
 */
export async function fetchMessengerInfo(botToken: string, channelId: string) {
  const client = botClient(botToken);
  const [me, chat, memberCount] = await Promise.all([
    client.call('getMe', (api) => api.getMe()),
    client.call('getChat', (api) => api.getChat(channelId)),
    client.call('getChatMemberCount', (api) => api.getChatMemberCount(channelId)),
  ]);
  return {
    bot: { id: me.id, first_name: me.first_name, username: me.username, photoUrl: null },
    channel: {
      id: chat.id,
      title: 'title' in chat ? (chat.title ?? null) : null,
      username: chat.username ?? null,
      memberCount,
      photoUrl: null,
    },
  };
}

export interface WebhookView {
  url: string;
  has_custom_certificate: boolean;
  pending_update_count: number;
  ip_address: string | null;
  last_error_date: number | null;
  last_error_message: string | null;
  max_connections: number | null;
  allowed_updates: string[] | null;
}

export async function fetchWebhookInfo(botToken: string): Promise<WebhookView> {
  const info = await botClient(botToken).call('getWebhookInfo', (api) => api.getWebhookInfo());
  return {
    url: info.url ?? '',
    has_custom_certificate: info.has_custom_certificate,
    pending_update_count: info.pending_update_count,
    ip_address: info.ip_address ?? null,
    last_error_date: info.last_error_date ?? null,
    last_error_message: info.last_error_message ?? null,
    max_connections: info.max_connections ?? null,
    allowed_updates: info.allowed_updates ?? null,
  };
}

/** Points the bot's webhook at `url` with a secret the platform echoes back, then reads the result. */
export async function registerWebhook(botToken: string, url: string, secretToken: string): Promise<WebhookView> {
  await botClient(botToken).call('setWebhook', (api) => api.setWebhook(url, { secret_token: secretToken }));
  return fetchWebhookInfo(botToken);
}
