import { DatabaseUrlMissing } from '../db/database-url-missing.js';
import { findPostgresError, RETRYABLE_CODES } from '../db/postgres-error.js';
import { ApiError } from './api-error.js';

const UNREACHABLE = 'Service unavailable: the database is unreachable';

/** The server answers but lacks the database the URL names (PostgreSQL's 3D000): a setting to fix, not a bug. */
const MISSING = 'Service unavailable: the database that DATABASE_URL names does not exist';

/** A statement ran past DATABASE_STATEMENT_TIMEOUT_MS and was cancelled: the database is too busy to answer in time. */
const TOO_SLOW = 'Service unavailable: the database took too long to answer, please try again';

/** A table or schema the code reads is missing: the database lags behind this build's migrations. */
const NOT_MIGRATED = 'Service unavailable: the database is not migrated (run npm run db:migrate)';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

function isConnectionFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown[] };
    if (typeof candidate.code === 'string' && CONNECTION_CODES.has(candidate.code)) return true;
    if (typeof candidate.message === 'string' && /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect/i.test(candidate.message)) return true;
    if (Array.isArray(candidate.errors) && candidate.errors.some(isConnectionFailure)) return true;
    current = candidate.cause;
  }
  return false;
}

/**
 * The column a unique violation is about, from PostgreSQL's detail (`Key (email)=(…) already
 * exists.`); an index on an expression (`lower(email)`) names the column inside it.
 */
function duplicatedField(detail: string | undefined): string | undefined {
  const key = /^Key \((.+?)\)=/.exec(detail ?? '')?.[1];
  if (!key || key.includes(',')) return undefined;
  return /(\w+)\)*$/.exec(key.replace(/::\w+|"/g, ''))?.[1];
}

/** Maps a database failure to the API error a client should see, or undefined when it is a bug. */
export function databaseErrorToApiError(error: unknown): ApiError | undefined {
  if (error instanceof DatabaseUrlMissing) return new ApiError(503, 'Service unavailable: DATABASE_URL is not set');
  const pgError = findPostgresError(error);
  if (pgError) {
    if (RETRYABLE_CODES.has(pgError.code)) return new ApiError(503, 'Service unavailable: the database was busy, please try again');
    switch (pgError.code) {
      case '23505':
        return ApiError.duplicate(duplicatedField(pgError.detail));
      case '23503':
        return pgError.detail?.includes('is still referenced')
          ? ApiError.conflict('The record is still referenced by other records')
          : ApiError.badRequest('A referenced record does not exist');
      case '22P02':
      case '22003':
      case '22001':
      case '22021':
      case '22P05':
        return ApiError.badRequest('Invalid value for a field');
      case '42P01':
      case '3F000':
        return new ApiError(503, NOT_MIGRATED);
      case '57014':
        return new ApiError(503, TOO_SLOW);
      case '3D000':
        return new ApiError(503, MISSING);
      case '57P01':
      case '57P03':
      case '53300':
      case '08000':
      case '08001':
      case '08003':
      case '08006':
        return new ApiError(503, UNREACHABLE);
      default:
        return undefined;
    }
  }
  if (isConnectionFailure(error)) return new ApiError(503, UNREACHABLE);
  return undefined;
}
