import { Api, GrammyError, HttpError } from 'grammy';
import { config } from '../config.js';
import { ChannelError, withoutToken } from './channel-error.js';

/**
 * The Bot API client. Only the modules that talk to the Bot API import this one, and they are
 * loaded on demand, so read-only functions never load the client library.
 */
export interface BotClient {
  /** Runs one Bot API call; failures come back as a `ChannelError` naming the method. */
  call<T>(method: string, run: (api: Api) => Promise<T>): Promise<T>;
}

function describeNetworkFailure(error: HttpError, method: string, timeoutMs: number): string {
  const cause = error.error as { message?: unknown; code?: unknown } | undefined;
  const text = typeof cause?.message === 'string' ? cause.message : '';
  if (/timed out|aborted/i.test(text)) return `Bot API ${method} timed out after ${timeoutMs / 1000} s`;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  return `Bot API ${method} could not be reached${code ? ` (${code})` : ''}`;
}

export function botClient(token: string): BotClient {
  const { messengerApiRoot, messengerTimeoutMs } = config();
  // grammy aborts a request that outlives its timeout, so a hanging Bot API never holds a write.
  const api = new Api(token, { apiRoot: messengerApiRoot, timeoutSeconds: messengerTimeoutMs / 1000 });
  return {
    async call(method, run) {
      try {
        return await run(api);
      } catch (error) {
        if (error instanceof GrammyError) {
          throw new ChannelError(withoutToken(`Bot API ${method} failed (${error.error_code}): ${error.description}`, token), error.error_code, error.description);
        }
        if (error instanceof HttpError) throw new ChannelError(withoutToken(describeNetworkFailure(error, method, messengerTimeoutMs), token));
        if (error instanceof ChannelError) throw error;
        const text = error instanceof Error ? error.message : String(error);
        throw new ChannelError(withoutToken(`Bot API ${method} failed: ${text}`, token));
      }
    },
  };
}
