import { log } from '../log.js';
import { ServerSecretMissing } from '../server-secret.js';
import { ApiError, errorEnvelope } from './api-error.js';
import { databaseErrorToApiError } from './database-errors.js';
import type { Reply } from './reply.js';

/**
 * The one place an error becomes an answer: an ApiError (or a missing setting or database error
 * it stands for) as the error envelope, anything else as a logged 500.
 */
export function errorReply(error: unknown, requestId: string): Reply {
  const apiError =
    error instanceof ApiError ? error : error instanceof ServerSecretMissing ? new ApiError(503, error.message) : databaseErrorToApiError(error);
  if (apiError && apiError.status >= 500) log.warn('request failed on a dependency', { requestId, status: apiError.status, error });
  if (apiError) {
    const body = errorEnvelope(apiError);
    const headers = { ...apiError.headers };
    if (apiError.status === 503) headers['Retry-After'] ??= '5';
    return { status: apiError.status, body, headers };
  }
  log.error('unhandled error', { requestId, error });
  return { status: 500, body: errorEnvelope(new ApiError(500, 'Internal server error')) };
}

/** A method the route does not serve: 405 naming the ones it does. */
export function methodNotAllowed(method: string, allowed: string): Reply {
  const error = new ApiError(405, `Method ${method} not allowed`, undefined, { Allow: allowed });
  return { status: 405, body: errorEnvelope(error), headers: { ...error.headers } };
}
