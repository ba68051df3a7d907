/**
 * A failed exchange with the Bot API, or a post that could not be prepared. Its message is safe to
 * store and show: it never holds the bot token.
 */
export class ChannelError extends Error {
  constructor(
    message: string,
    /** The Bot API's `error_code` when it answered with an error. */
    readonly code?: number,
    /** The Bot API's `description` when it answered with an error. */
    readonly description?: string,
    /**
     * Whether trying again later can succeed: a rate limit (429), a Bot API fault (5xx), or the
     * Bot API out of reach. A removed bot, a missing chat or a bad token will not heal.
     */
    readonly healable = false,
    /** With a 429: how long the Bot API asked to wait, in seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ChannelError';
  }
}

/**
 * A post that reached the channel only in part: a media group whose buttons message failed. The
 * messages that went out are kept, so a retry sends only what is missing.
 */
export class PartialPostError extends ChannelError {
  constructor(
    message: string,
    /** The ids of the messages that did go out, first to last. */
    readonly sentIds: number[],
    /** The failure of the part that did not go out. */
    readonly failure: ChannelError | undefined,
  ) {
    super(message, failure?.code, failure?.description, failure?.healable ?? false, failure?.retryAfterSeconds);
    this.name = 'PartialPostError';
  }
}

/** Removes the token from any text that might carry a request URL (network errors name the URL). */
export function withoutToken(text: string, token: string): string {
  return token ? text.split(token).join('<token>') : text;
}

/** The message stored in a failed log entry. */
export function failureMessage(error: unknown, token: string): string {
  const text = error instanceof ChannelError ? error.message : `Posting failed: ${error instanceof Error ? error.message : String(error)}`;
  return withoutToken(text, token);
}
