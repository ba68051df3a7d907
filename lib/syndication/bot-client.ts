import { autoRetry } from '@grammyjs/auto-retry';
import { Api, GrammyError, HttpError } from 'grammy';
import { config } from '../config.js';
import { inSpan } from '../telemetry.js';
import { ChannelError, withoutToken } from './channel-error.js';

/**
 * The Bot API client. Only the modules that talk to the Bot API import this one, and they are
 * loaded on demand, so read-only functions never load the client library.
 */
export interface BotClient {
  /** Runs one Bot API call; failures come back as a `ChannelError` naming the method. */
  call<T>(method: string, run: (api: Api) => Promise<T>): Promise<T>;
}

/** Failures that happen before a request is written: the Bot API never saw it. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Calls that add messages to a chat: the ones that, repeated, post twice. */
const SENDING_METHODS = new Set(['sendMessage', 'sendPhoto', 'sendMediaGroup']);

/** A call that got no answer: why, and whether the Bot API may have received it. */
function networkFailure(error: HttpError, method: string, timeoutMs: number): { text: string; mayHaveArrived: boolean } {
  const cause = error.error as { message?: unknown; code?: unknown } | undefined;
  const text = typeof cause?.message === 'string' ? cause.message : '';
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code !== undefined && NEVER_SENT.has(code)) return { text: `Bot API ${method} could not be reached (${code})`, mayHaveArrived: false };
  // A timeout or a connection cut: the request may have been written, and taken, before the answer was lost.
  if (/timed out|aborted/i.test(text)) return { text: `Bot API ${method} timed out after ${timeoutMs / 1000} s`, mayHaveArrived: true };
  return { text: `Bot API ${method} got no answer${code ? ` (${code})` : ''}`, mayHaveArrived: true };
}

/**
 * Within one invocation the Bot API's own pacing is honoured: a 429 whose `retry_after` is at most
 * this many seconds is waited out, and a 5xx is tried once more after a short backoff. Anything
 * longer, and a Bot API out of reach, fails the attempt and is left to the sweeper.
 */
const IN_INVOCATION_WAIT_SECONDS = 5;

export function botClient(token: string): BotClient {
  const { messengerApiRoot, messengerTimeoutMs } = config();
  // grammy aborts a request that outlives its timeout, so a hanging Bot API never holds a write.
  const api = new Api(token, { apiRoot: messengerApiRoot, timeoutSeconds: messengerTimeoutMs / 1000 });
  api.config.use(autoRetry({ maxRetryAttempts: 1, maxDelaySeconds: IN_INVOCATION_WAIT_SECONDS, rethrowHttpErrors: true }));
  // With telemetry on, each call is a span.
  return {
    call: (method, run) => inSpan(`Bot API ${method}`, { 'rpc.system': 'bot-api', 'rpc.method': method }, () => callOnce(method, run)),
  };

  /** One call, its failure turned into a ChannelError that never holds the token. */
  async function callOnce<T>(method: string, run: (api: Api) => Promise<T>): Promise<T> {
    try {
      return await run(api);
    } catch (error) {
      if (error instanceof GrammyError) {
        throw new ChannelError(withoutToken(`Bot API ${method} failed (${error.error_code}): ${error.description}`, token), {
          code: error.error_code,
          description: error.description,
          healable: error.error_code === 429 || error.error_code >= 500,
          retryAfterSeconds: error.parameters.retry_after,
        });
      }
      if (error instanceof HttpError) {
        const { text, mayHaveArrived } = networkFailure(error, method, messengerTimeoutMs);
        throw new ChannelError(withoutToken(text, token), { healable: true, mayHaveSent: mayHaveArrived && SENDING_METHODS.has(method) });
      }
      if (error instanceof ChannelError) throw error;
      const text = error instanceof Error ? error.message : String(error);
      throw new ChannelError(withoutToken(`Bot API ${method} failed: ${text}`, token));
    }
  }
}
