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
  ) {
    super(message);
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
