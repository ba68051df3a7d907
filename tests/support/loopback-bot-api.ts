import { afterAll, beforeAll } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';

/** One request the loopback Bot API received. */
export interface BotApiCall {
  method: string;
  token: string;
  /** Every parameter, with JSON-encoded multipart fields decoded. */
  params: Record<string, any>;
  chatId: string | undefined;
  text: string | undefined;
  caption: string | undefined;
  parseMode: string | undefined;
  replyMarkup: { inline_keyboard: Array<Array<{ text: string; url?: string }>> } | undefined;
  /** Photos sent: 1 for sendPhoto, the media count for sendMediaGroup. */
  photoCount: number;
  /** Files uploaded in the multipart body, in order. */
  uploads: Buffer[];
  /** Photos passed by URL rather than uploaded. */
  photoUrls: string[];
  /** The `result` answered, when the call succeeded. */
  result?: any;
}

export interface BotApiFailure {
  error_code: number;
  description: string;
  /** As the Bot API sends with a 429: how long to wait. */
  parameters?: { retry_after?: number };
}

interface PostedMessage {
  kind: 'text' | 'photo';
  /** An item of a media group: the real Bot API drops any buttons sent for it. */
  album: boolean;
  content: string;
  markup: string;
}

export interface LoopbackBotApi {
  apiRoot: string;
  calls: BotApiCall[];
  callsTo(method: string): BotApiCall[];
  /** Calls of `method` ('*' for any) answer with this Bot API error until `reset`, or only the next `times` of them. */
  fail(method: string, failure: BotApiFailure, times?: number): void;
  /**
   * Acts out the Bot API's flood control: at most `messages` sending calls per `windowMs` into one
   * chat (each photo of a media group counts), the rest answered 429 with the seconds left in `retry_after`.
   */
  limitRate(messages: number, windowMs: number): void;
  /** Calls of `method` ('*' for any) never get an answer. */
  hang(method: string): void;
  /** Calls of `method` ('*' for any) are answered only after this many milliseconds. */
  delay(method: string, milliseconds: number): void;
  /** Forgets failures, flood control, hangs, delays and recorded calls (the channel's messages stay). */
  reset(): void;
  /** Tokens the server accepts, besides the first. */
  acceptToken(token: string): void;
  /** The messages currently in a chat, by id. */
  messagesIn(chatId: string): Map<number, PostedMessage>;
  webhook: { url: string; secretToken: string | undefined };
  close(): Promise<void>;
}

export interface LoopbackBotApiOptions {
  token: string;
  bot?: { id: number; first_name: string; username: string };
  channel?: { title: string; username: string; memberCount: number };
}

function parseValue(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

async function readBody(req: http.IncomingMessage): Promise<{ params: Record<string, any>; files: Map<string, Buffer> }> {
  const type = req.headers['content-type'] ?? '';
  const files = new Map<string, Buffer>();
  if (type.startsWith('multipart/form-data')) {
    const params: Record<string, any> = {};
    await new Promise<void>((resolve, reject) => {
      const parser = busboy({ headers: req.headers });
      parser.on('field', (name, value) => {
        params[name] = parseValue(value);
      });
      parser.on('file', (name, stream) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => files.set(name, Buffer.concat(chunks)));
      });
      parser.on('close', resolve);
      parser.on('error', reject);
      req.pipe(parser);
    });
    return { params, files };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return { params: text ? (JSON.parse(text) as Record<string, any>) : {}, files };
}

/** `attach://<name>` names an uploaded part; anything else is a URL or file id. */
function photoSource(media: unknown, files: Map<string, Buffer>, call: BotApiCall): void {
  if (typeof media !== 'string') return;
  const attached = /^attach:\/\/(.+)$/.exec(media);
  if (attached) {
    const file = files.get(attached[1]!);
    if (file) call.uploads.push(file);
  } else {
    call.photoUrls.push(media);
  }
}

/**
 * A Bot API server on loopback: `/bot<token>/<method>` with JSON or multipart bodies, answering
 * `{ ok: true, result }` or `{ ok: false, error_code, description }` as the real one does. It keeps
 * the messages of each chat so edits and deletes behave like the real channel's.
 */
export async function startLoopbackBotApi(options: LoopbackBotApiOptions): Promise<LoopbackBotApi> {
  const tokens = new Set([options.token]);
  const bot = options.bot ?? { id: 7000001, first_name: 'Shop Bot', username: 'shop_listing_bot' };
  const channel = options.channel ?? { title: 'Shop Deals', username: 'shopdeals', memberCount: 1234 };
  const calls: BotApiCall[] = [];
  const failures = new Map<string, { failure: BotApiFailure; remaining: number }>();
  let rateLimit: { messages: number; windowMs: number; sent: Map<string, number[]> } | undefined;
  const SENDING = new Set(['sendMessage', 'sendPhoto', 'sendMediaGroup']);
  /** Whether flood control lets this call through; counts it when it does. */
  const floodControl = (call: BotApiCall): BotApiFailure | undefined => {
    if (!rateLimit || !SENDING.has(call.method)) return undefined;
    const now = Date.now();
    const chat = call.chatId ?? '';
    const recent = (rateLimit.sent.get(chat) ?? []).filter((at) => now - at < rateLimit!.windowMs);
    const weight = call.method === 'sendMediaGroup' ? Math.max(1, call.photoCount) : 1;
    if (recent.length + weight > rateLimit.messages) {
      const retryAfter = Math.max(1, Math.ceil((recent[0]! + rateLimit.windowMs - now) / 1000));
      rateLimit.sent.set(chat, recent);
      return { error_code: 429, description: `Too Many Requests: retry after ${retryAfter}`, parameters: { retry_after: retryAfter } };
    }
    rateLimit.sent.set(chat, [...recent, ...Array<number>(weight).fill(now)]);
    return undefined;
  };
  const hangs = new Set<string>();
  const delays = new Map<string, number>();
  const chats = new Map<string, Map<number, PostedMessage>>();
  const webhook: { url: string; secretToken: string | undefined } = { url: '', secretToken: undefined };
  let nextMessageId = 100;

  const messagesIn = (chatId: string) => {
    let messages = chats.get(chatId);
    if (!messages) {
      messages = new Map();
      chats.set(chatId, messages);
    }
    return messages;
  };

  const chatOf = (chatId: string) => ({ id: /^-?\d+$/.test(chatId) ? Number(chatId) : -1001000000001, type: 'channel', title: channel.title });

  const post = (chatId: string, kind: PostedMessage['kind'], content: string, markup: unknown, extra: Record<string, unknown>, album = false) => {
    const messageId = nextMessageId++;
    messagesIn(chatId).set(messageId, { kind, album, content, markup: JSON.stringify(album ? null : (markup ?? null)) });
    return { message_id: messageId, date: Math.floor(Date.now() / 1000), chat: chatOf(chatId), ...extra };
  };

  const badRequest = (description: string): BotApiFailure => ({ error_code: 400, description: `Bad Request: ${description}` });

  const edit = (call: BotApiCall, kind: PostedMessage['kind'], content: string): unknown => {
    const message = messagesIn(call.chatId ?? '').get(Number(call.params.message_id));
    if (!message) return badRequest('message to edit not found');
    if (message.kind !== kind) return badRequest(kind === 'photo' ? 'there is no caption in the message to edit' : 'there is no text in the message to edit');
    const markup = JSON.stringify(message.album ? null : (call.replyMarkup ?? null));
    if (message.content === content && message.markup === markup) {
      return badRequest('message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message');
    }
    Object.assign(message, { content, markup });
    return { ok: true, result: { message_id: Number(call.params.message_id), chat: chatOf(call.chatId ?? ''), edit_date: 1 } };
  };

  const answer = (call: BotApiCall, files: Map<string, Buffer>): unknown => {
    const chatId = call.chatId ?? '';
    switch (call.method) {
      case 'getMe':
        return { ok: true, result: { ...bot, is_bot: true, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false } };
      case 'getChat':
        return {
          ok: true,
          result: { ...chatOf(chatId), username: channel.username, photo: { small_file_id: 'AQADsmall', small_file_unique_id: 's1', big_file_id: 'AQADbig', big_file_unique_id: 'b1' } },
        };
      case 'getChatMemberCount':
        return { ok: true, result: channel.memberCount };
      case 'sendMessage':
        return { ok: true, result: post(chatId, 'text', call.text ?? '', call.replyMarkup, { text: call.text }) };
      case 'sendPhoto':
        photoSource(call.params.photo, files, call);
        call.photoCount = 1;
        return { ok: true, result: post(chatId, 'photo', call.caption ?? '', call.replyMarkup, { photo: [{ file_id: 'photo', file_unique_id: 'p', width: 1200, height: 900 }] }) };
      case 'sendMediaGroup': {
        const media = Array.isArray(call.params.media) ? (call.params.media as Array<{ media: unknown; caption?: string }>) : [];
        if (media.length < 2 || media.length > 10) return badRequest('wrong number of media in the group');
        call.photoCount = media.length;
        for (const item of media) photoSource(item.media, files, call);
        call.caption = media[0]?.caption;
        call.parseMode = (media[0] as { parse_mode?: string } | undefined)?.parse_mode;
        return { ok: true, result: media.map((item) => post(chatId, 'photo', item.caption ?? '', null, { media_group_id: 'group', caption: item.caption }, true)) };
      }
      case 'editMessageCaption': {
        const result = edit(call, 'photo', call.caption ?? '');
        return 'ok' in (result as object) ? result : { ok: false, ...(result as BotApiFailure) };
      }
      case 'editMessageText': {
        const result = edit(call, 'text', call.text ?? '');
        return 'ok' in (result as object) ? result : { ok: false, ...(result as BotApiFailure) };
      }
      case 'deleteMessage': {
        const deleted = messagesIn(chatId).delete(Number(call.params.message_id));
        return deleted ? { ok: true, result: true } : { ok: false, ...badRequest('message to delete not found') };
      }
      case 'deleteMessages': {
        // The Bot API skips the messages it cannot find.
        const ids = Array.isArray(call.params.message_ids) ? (call.params.message_ids as unknown[]).map(Number) : [];
        if (ids.length === 0 || ids.length > 100) return badRequest('message_ids must list 1 to 100 messages');
        for (const id of ids) messagesIn(chatId).delete(id);
        return { ok: true, result: true };
      }
      case 'setWebhook':
        webhook.url = String(call.params.url ?? '');
        webhook.secretToken = call.params.secret_token === undefined ? undefined : String(call.params.secret_token);
        return { ok: true, result: true, description: 'Webhook was set' };
      case 'getWebhookInfo':
        return { ok: true, result: { url: webhook.url, has_custom_certificate: false, pending_update_count: 0, max_connections: 40 } };
      default:
        return { ok: false, error_code: 404, description: 'Not Found' };
    }
  };

  const server = http.createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    const handle = async () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(new URL(req.url ?? '/', 'http://localhost').pathname);
      if (!match) return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
      const [, token, method] = match as unknown as [string, string, string];
      const { params, files } = await readBody(req);
      const call: BotApiCall = {
        method,
        token,
        params,
        chatId: params.chat_id === undefined ? undefined : String(params.chat_id),
        text: typeof params.text === 'string' ? params.text : undefined,
        caption: typeof params.caption === 'string' ? params.caption : undefined,
        parseMode: typeof params.parse_mode === 'string' ? params.parse_mode : undefined,
        replyMarkup: params.reply_markup,
        photoCount: 0,
        uploads: [],
        photoUrls: [],
      };
      calls.push(call);
      if (!tokens.has(token)) return reply(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      if (hangs.has(method) || hangs.has('*')) return;
      const wait = delays.get(method) ?? delays.get('*');
      if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
      const planned = failures.get(method) ?? failures.get('*');
      if (planned && planned.remaining > 0) {
        planned.remaining -= 1;
        return reply(planned.failure.error_code, { ok: false, ...planned.failure });
      }
      const flooded = floodControl(call);
      if (flooded) return reply(429, { ok: false, ...flooded });
      const body = answer(call, files) as { ok: boolean; error_code?: number; result?: unknown };
      call.result = body.result;
      reply(body.ok ? 200 : (body.error_code ?? 400), body);
    };
    handle().catch((error: unknown) => reply(500, { ok: false, error_code: 500, description: `Internal Server Error: ${String(error)}` }));
  });
  // The bot client keeps its connections open. With Node's default 5 s idle wait, this server would
  // close one just as a call made after a 5 s wait (a 429's retry_after) is written on it: a reset
  // the real Bot API, which keeps idle connections far longer, does not cause.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    calls,
    callsTo: (method) => calls.filter((call) => call.method === method),
    fail: (method, failure, times = Number.POSITIVE_INFINITY) => failures.set(method, { failure, remaining: times }),
    limitRate: (messages, windowMs) => {
      rateLimit = { messages, windowMs, sent: new Map() };
    },
    hang: (method) => hangs.add(method),
    delay: (method, milliseconds) => delays.set(method, milliseconds),
    reset: () => {
      failures.clear();
      rateLimit = undefined;
      hangs.clear();
      delays.clear();
      calls.length = 0;
    },
    acceptToken: (token) => tokens.add(token),
    messagesIn,
    webhook,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A test file's loopback Bot API, started before its tests and closed after them (register it before
 * `useTestServer`). The handle stands for the running server in hooks and tests; `serverEnv()`
 * points the service at it, posting to `channelId`.
 */
export function useLoopbackBotApi(options: LoopbackBotApiOptions & { channelId: string }): LoopbackBotApi & { serverEnv: () => Record<string, string> } {
  let started: LoopbackBotApi | undefined;
  beforeAll(async () => {
    started = await startLoopbackBotApi(options);
  });
  afterAll(() => started?.close());
  const current = (): LoopbackBotApi => {
    if (!started) throw new Error('The loopback Bot API is started in beforeAll: use it from hooks and tests');
    return started;
  };
  const serverEnv = () => ({ MESSENGER_API_ROOT: current().apiRoot, MESSENGER_BOT_TOKEN: options.token, MESSENGER_CHANNEL_ID: options.channelId });
  return new Proxy({ serverEnv } as LoopbackBotApi & { serverEnv: typeof serverEnv }, {
    get: (target, property) => (property === 'serverEnv' ? target.serverEnv : Reflect.get(current(), property)),
  });
}
