/**
 * The stable identifier of every error answer, beside the spec's `error` message: what a client
 * branches on. One code per case a client may act on differently; each belongs to one status.
 */
export const ERROR_CODES = {
  VALIDATION_FAILED: { status: 400, description: 'A parameter, field or file is missing or invalid; `details` names each one at fault' },
  MALFORMED_BODY: { status: 400, description: 'The body is not well-formed JSON, multipart or CSV (or not UTF-8 text), or the upload was cut off' },
  UNSUPPORTED_IMAGE: { status: 400, description: 'A file is not a decodable image, or its dimensions are too large' },
  INVALID_AGENT_CODE: { status: 400, description: 'The invitation code is unknown, used up, revoked or expired' },
  INVALID_RESET_CODE: { status: 400, description: 'The password reset code is wrong, expired or used up' },
  UNAUTHENTICATED: { status: 401, description: 'No usable credentials: the token is missing, malformed, invalid, expired or revoked, or its user is gone' },
  INVALID_CREDENTIALS: { status: 401, description: 'The e-mail and password do not match an account' },
  FORBIDDEN: { status: 403, description: 'The caller\'s role may not do this, or the record belongs to another agent' },
  CURRENT_PASSWORD_INCORRECT: { status: 403, description: 'The change needs the account\'s current password, and it is missing or wrong' },
  NOT_FOUND: { status: 404, description: 'No record (or route) by that name' },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The path does not answer this method; `Allow` lists those it does' },
  ALREADY_EXISTS: { status: 409, description: 'A unique value (an e-mail, a category name) is taken; `details` names the field' },
  CONFLICT: { status: 409, description: 'The record is not in a state that allows this (in use, sold out, not failed)' },
  NOT_CONFIGURED: { status: 409, description: 'The feature needs a configuration the shop does not have (channel posting, the image host)' },
  IDEMPOTENCY_KEY_IN_PROGRESS: { status: 409, description: 'A request with this Idempotency-Key is still running' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The body is larger than the endpoint accepts' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'The body\'s Content-Type is not one the endpoint reads' },
  ATTRIBUTES_INVALID: { status: 422, description: 'The listing\'s attributes do not satisfy its category\'s rules; `details` names each' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, description: 'The Idempotency-Key was used before with a different request' },
  RATE_LIMITED: { status: 429, description: 'Too many requests; `Retry-After` says when to try again' },
  INTERNAL_ERROR: { status: 500, description: 'An unexpected failure' },
  UPSTREAM_FAILED: { status: 502, description: 'An outside service (the image host, the Bot API) failed' },
  DEPENDENCY_UNAVAILABLE: { status: 503, description: 'The database or a required setting is unavailable; `Retry-After` says when to try again' },
  PASSWORD_CHECKS_BUSY: { status: 503, description: 'Every place for password checks in this instance is taken; `Retry-After` says when to try again' },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ALL_ERROR_CODES = Object.keys(ERROR_CODES) as ErrorCode[];

/** The code of an error thrown with a status alone: the general case of that status. A 422 has none: each names its code. */
const GENERAL_CODES: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  502: 'UPSTREAM_FAILED',
  503: 'DEPENDENCY_UNAVAILABLE',
};

export function generalCodeOf(status: number): ErrorCode {
  return GENERAL_CODES[status] ?? 'INTERNAL_ERROR';
}
