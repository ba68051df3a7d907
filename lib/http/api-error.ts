export interface ErrorDetail {
  field: string;
  message: string;
  received?: unknown;
}

/** The one error type of the API: thrown anywhere, turned into the envelope by the route wrapper. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
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
    return new ApiError(409, DUPLICATE_MESSAGE, field ? [{ field, message: `${field} already exists` }] : undefined);
  }
}

/** The spec's message for a unique value that is already taken. */
export const DUPLICATE_MESSAGE = 'A record with that value already exists';

/** `Listing with id "<id>" not found`, the spec's wording for a missing record. */
export function notFoundError(resource: string, id: string): ApiError {
  return ApiError.notFound(`${resource} with id "${id}" not found`);
}
