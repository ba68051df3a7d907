/** What is known of a failed exchange with the Bot API, besides its message. */
export interface ChannelFailure {
  /** The Bot API's `error_code` when it answered with an error. */
  code?: number;
  /** The Bot API's `description` when it answered with an error. */
  description?: string;
  /**
   * Whether trying again later can succeed: a rate limit (429), a Bot API fault (5xx), or the
   * Bot API out of reach. A removed bot, a missing chat or a bad token will not heal.
   */
  healable?: boolean;
  /** With a 429: how long the Bot API asked to wait, in seconds. */
  retryAfterSeconds?: number;
  /**
   * A sending call whose outcome is unknown: the request went out and no answer came (a timeout, a
   * connection cut), so the Bot API may have posted it. The Bot API has no idempotency key, so
   * sending it again may post it twice.
   */
  mayHaveSent?: boolean;
}

/**
 * A failed exchange with the Bot API, or a post that could not be prepared. Its message is safe to
 * store and show: it never holds the bot token.
 */
export class ChannelError extends Error {
  readonly code?: number;
  readonly description?: string;
  readonly healable: boolean;
  readonly retryAfterSeconds?: number;
  readonly mayHaveSent: boolean;

  constructor(message: string, failure: ChannelFailure = {}) {
    super(message);
    this.name = 'ChannelError';
    this.code = failure.code;
    this.description = failure.description;
    this.healable = failure.healable ?? false;
    this.retryAfterSeconds = failure.retryAfterSeconds;
    this.mayHaveSent = failure.mayHaveSent ?? false;
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
    super(message, failure ?? {});
    this.name = 'PartialPostError';
  }
}

/** Removes the token from any text that might carry a request URL (network errors name the URL). */
export function withoutToken(text: string, token: string): string {
  return token ? text.split(token).join('<token>') : text;
}

/**
 * The message stored in a failed log entry. A send whose outcome is unknown says so, and that it
 * waits for a person: only someone who can look at the channel knows whether to send it again.
 */
export function failureMessage(error: unknown, token: string): string {
  const text = error instanceof ChannelError ? error.message : `Posting failed: ${error instanceof Error ? error.message : String(error)}`;
  const told =
    error instanceof ChannelError && error.mayHaveSent
      ? `Outcome unknown: ${text}. The post may be on the channel, so it is not sent again on its own: check the channel, and retry this entry if the post is missing`
      : text;
  return withoutToken(told, token);
}
