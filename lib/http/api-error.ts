import { ERROR_CODES, generalCodeOf, type ErrorCode } from './error-codes.js';

export interface ErrorDetail {
  field: string;
  message: string;
  received?: unknown;
}

/** The one error type of the API: thrown anywhere, turned into the envelope by the route wrapper. */
export class ApiError extends Error {
  /** The stable identifier clients branch on; by default the general case of the status. */
  readonly code: ErrorCode;

  constructor(
    readonly status: number,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
    code?: ErrorCode,
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code ?? generalCodeOf(status);
  }

  /** An error of a particular case, at the status its code belongs to. */
  static of(code: ErrorCode, message: string, details?: ErrorDetail[]): ApiError {
    return new ApiError(ERROR_CODES[code].status, message, details, undefined, code);
  }

  static badRequest(message: string, details?: ErrorDetail[]): ApiError {
    return new ApiError(400, message, details);
  }

  static unauthorized(message: string): ApiError {
    return new ApiError(401, message);
  }

  static forbidden(message = 'Not authorized'): ApiError {
    return new ApiError(403, message);
  }

  static notFound(message: string): ApiError {
    return new ApiError(404, message);
  }

  static conflict(message: string): ApiError {
    return new ApiError(409, message);
  }

  /** A unique value taken: the spec's message, with the field named in `details` (`email already exists`). */
  static duplicate(field: string | undefined): ApiError {
    return ApiError.of('ALREADY_EXISTS', DUPLICATE_MESSAGE, field ? [{ field, message: `${field} already exists` }] : undefined);
  }
}

/** The spec's message for a unique value that is already taken. */
export const DUPLICATE_MESSAGE = 'A record with that value already exists';

/** `Listing with id "<id>" not found`, the spec's wording for a missing record. */
export function notFoundError(resource: string, id: string): ApiError {
  return ApiError.notFound(`${resource} with id "${id}" not found`);
}

/** An error answer's body: the spec's `success: false` and `error`, the stable `code`, and `details` when there are any. */
export interface ErrorEnvelope {
  success: false;
  error: string;
  code: ErrorCode;
  details?: ErrorDetail[];
}

/** An error answer lists at most this many details, so a huge bad body cannot make a huge answer. */
const MAX_DETAILS = 50;

export function errorEnvelope(error: ApiError): ErrorEnvelope {
  const body: ErrorEnvelope = { success: false, error: error.message, code: error.code };
  if (error.details) body.details = error.details.slice(0, MAX_DETAILS);
  return body;
}
