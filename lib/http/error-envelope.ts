import { log } from '../log.js';
import { ApiError } from './api-error.js';
import { databaseErrorToApiError } from './database-errors.js';
import type { Reply } from './reply.js';

/** An error answer lists at most this many details, so a huge bad body cannot make a huge answer. */
const MAX_DETAILS = 50;

/**
 * The one place an error becomes an answer: an ApiError (or a database error it stands for) as
 * the error envelope, anything else as a logged 500.
 */
export function errorReply(error: unknown, requestId: string): Reply {
  const apiError = error instanceof ApiError ? error : databaseErrorToApiError(error);
  if (apiError && apiError.status >= 500) log.warn('request failed on a dependency', { requestId, status: apiError.status, error });
  if (apiError) {
    const body: Record<string, unknown> = { success: false, error: apiError.message };
    if (apiError.details) body.details = apiError.details.slice(0, MAX_DETAILS);
    const headers = { ...apiError.headers };
    if (apiError.status === 503) headers['Retry-After'] ??= '5';
    return { status: apiError.status, body, headers };
  }
  log.error('unhandled error', { requestId, error });
  return { status: 500, body: { success: false, error: 'Internal server error' } };
}

/** A method the route does not serve: 405 naming the ones it does. */
export function methodNotAllowed(method: string, allowed: string): Reply {
  return { status: 405, body: { success: false, error: `Method ${method} not allowed` }, headers: { Allow: allowed } };
}
