import path from 'node:path';
import { InlineKeyboard, InputFile } from 'grammy';
import { storageFor } from '../media/storage.js';
import { botClient, type BotClient } from './bot-client.js';
import { ChannelError, PartialPostError } from './channel-error.js';
import type { LinkButton } from './keyboard.js';

/** A media group holds at most 10 items. */
const MAX_IMAGES = 10;
/** deleteMessages takes at most 100 ids per call. */
const MAX_DELETED_PER_CALL = 100;

/** What a listing's channel post shows. */
export interface PostContent {
  /** HTML caption (or text of a text post), already within the limit. */
  caption: string;
  /** Text of the message carrying the buttons under a media group (HTML). */
  buttonsText: string;
  buttons: LinkButton[];
  /** Stored image references, in order. */
  images: string[];
}

function keyboardOf(buttons: LinkButton[]): InlineKeyboard | undefined {
  if (buttons.length === 0) return undefined;
  return new InlineKeyboard([buttons.map((button) => InlineKeyboard.url(button.text, button.url))]);
}

/** An image-host URL goes to the Bot API as is; a local image is uploaded from our storage. */
async function photoOf(ref: string): Promise<InputFile | string> {
  if (/^https?:\/\//i.test(ref)) return ref;
  const storage = await storageFor(ref);
  if (!storage) throw new ChannelError(`Image "${ref}" could not be read: it is not a stored image`);
  try {
    return new InputFile(await storage.read(ref), path.basename(ref));
  } catch (error) {
    const reason = (error as { code?: unknown }).code === 'ENOENT' ? 'the file is missing' : error instanceof Error ? error.message : String(error);
    throw new ChannelError(`Image "${ref}" could not be read: ${reason}`);
  }
}

/**
 * Posts a listing: a text post, a photo, or a media group followed by the buttons. Returns the ids
 * of every message sent, first to last; the first is the post's message id.
 */
async function publish(client: BotClient, channelId: string, content: PostContent): Promise<number[]> {
  const photos = await Promise.all(content.images.slice(0, MAX_IMAGES).map(photoOf));
  const keyboard = keyboardOf(content.buttons);
  const markup = keyboard ? { reply_markup: keyboard } : {};
  const [first, ...rest] = photos;
  if (first === undefined) {
    const message = await client.call('sendMessage', (api) =>
      api.sendMessage(channelId, content.caption, { parse_mode: 'HTML', link_preview_options: { is_disabled: true }, ...markup }),
    );
    return [message.message_id];
  }
  if (rest.length === 0) {
    const message = await client.call('sendPhoto', (api) => api.sendPhoto(channelId, first, { caption: content.caption, parse_mode: 'HTML', ...markup }));
    return [message.message_id];
  }
  const messages = await client.call('sendMediaGroup', (api) =>
    api.sendMediaGroup(
      channelId,
      photos.map((media, index) => (index === 0 ? { type: 'photo' as const, media, caption: content.caption, parse_mode: 'HTML' as const } : { type: 'photo' as const, media })),
    ),
  );
  const ids = messages.map((message) => message.message_id);
  if (ids.length === 0) throw new ChannelError('Bot API sendMediaGroup returned no messages');
  if (!keyboard) return ids;
  try {
    return [...ids, await publishButtons(client, channelId, content)];
  } catch (error) {
    // The album is on the channel: it is kept, and a retry sends only the buttons.
    const reason = error instanceof Error ? error.message : String(error);
    const failure = error instanceof ChannelError ? error : undefined;
    const buttons = failure?.mayHaveSent ? 'and its buttons message may have been too' : 'but its buttons message was not';
    throw new PartialPostError(`The album was posted, ${buttons}: ${reason}`, ids, failure);
  }
}

/** The message carrying a media group's buttons (an album cannot carry them itself). */
async function publishButtons(client: BotClient, channelId: string, content: PostContent): Promise<number> {
  const keyboard = keyboardOf(content.buttons);
  const message = await client.call('sendMessage', (api) =>
    api.sendMessage(channelId, content.buttonsText, { parse_mode: 'HTML', ...(keyboard ? { reply_markup: keyboard } : {}) }),
  );
  return message.message_id;
}

/** Deletes messages of one channel; the Bot API skips those already gone. */
async function deleteAll(client: BotClient, channelId: string, messageIds: number[]): Promise<void> {
  for (let start = 0; start < messageIds.length; start += MAX_DELETED_PER_CALL) {
    const batch = messageIds.slice(start, start + MAX_DELETED_PER_CALL);
    await client.call('deleteMessages', (api) => api.deleteMessages(channelId, batch));
  }
}

const NOT_MODIFIED = /message is not modified/i;
const NO_CAPTION = /there is no caption in the message/i;
const NO_TEXT = /there is no text in the message/i;

/**
 * Edits a posted message's caption (photo posts) or text (text posts), and its buttons. Which kind
 * the message is follows from the images it was posted with, which may have changed since: when
 * the Bot API says the message has no caption (or no text), the other edit is made. An edit that
 * changes nothing counts as done.
 */
async function edit(client: BotClient, channelId: string, messageId: number, caption: string, buttons: LinkButton[] | undefined, expectPhoto: boolean): Promise<void> {
  const keyboard = buttons ? keyboardOf(buttons) : undefined;
  // Omitting the markup in an edit removes the buttons, so it is sent whenever it is known (on a
  // media group's item the Bot API ignores it: albums cannot show buttons).
  const markup = keyboard ? { reply_markup: keyboard } : {};
  const editCaption = () => client.call('editMessageCaption', (api) => api.editMessageCaption(channelId, messageId, { caption, parse_mode: 'HTML', ...markup }));
  const editText = () =>
    client.call('editMessageText', (api) => api.editMessageText(channelId, messageId, caption, { parse_mode: 'HTML', link_preview_options: { is_disabled: true }, ...markup }));
  const [firstTry, otherTry, wrongKind] = expectPhoto ? [editCaption, editText, NO_CAPTION] : [editText, editCaption, NO_TEXT];
  try {
    await firstTry();
  } catch (error) {
    if (!(error instanceof ChannelError) || !error.description) throw error;
    if (NOT_MODIFIED.test(error.description)) return;
    if (!wrongKind.test(error.description)) throw error;
    try {
      await otherTry();
    } catch (second) {
      if (second instanceof ChannelError && second.description && NOT_MODIFIED.test(second.description)) return;
      throw second;
    }
  }
}

/** The Bot API calls of channel posting, bound to one bot. */
export function channelPublisher(botToken: string) {
  const client = botClient(botToken);
  return {
    publish: (channelId: string, content: PostContent) => publish(client, channelId, content),
    /** Sends only the buttons message of a media group that is already on the channel. */
    publishButtons: (channelId: string, content: PostContent) => publishButtons(client, channelId, content),
    /** Re-captions a listing's post and sets its buttons. */
    editPost: (channelId: string, messageId: number, content: PostContent) => edit(client, channelId, messageId, content.caption, content.buttons, content.images.length > 0),
    /** Sets a message's caption (or text), keeping the given buttons. */
    editCaption: (channelId: string, messageId: number, caption: string, buttons: LinkButton[] | undefined, expectPhoto: boolean) =>
      edit(client, channelId, messageId, caption, buttons, expectPhoto),
    deleteMessage: (channelId: string, messageId: number) => client.call('deleteMessage', (api) => api.deleteMessage(channelId, messageId)),
    /** Deletes a post's messages, skipping any already gone. */
    deleteMessages: (channelId: string, messageIds: number[]) => deleteAll(client, channelId, messageIds),
  };
}
