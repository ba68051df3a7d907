import type { Readable } from 'node:stream';

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  /** False when `total` is an estimate, past what a list counts one by one. */
  totalExact: boolean;
}

/** What a handler returns: the route wrapper writes it. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Set when `body` is already encoded (a page, an asset, or a stream) and is sent as is, with its own type. */
  contentType?: string;
}

/** `{ success: true, data, ...extra }`, the success envelope. */
export function ok(data: unknown, extra: Record<string, unknown> = {}, status = 200): Reply {
  return { status, body: { success: true, data, ...extra } };
}

export function created(data: unknown): Reply {
  return ok(data, {}, 201);
}

export function paginated(data: unknown[], pagination: Pagination, extra: Record<string, unknown> = {}): Reply {
  return ok(data, { pagination, ...extra });
}

/** `{ success: true, message }` for endpoints whose contract carries only a message. */
export function message(text: string): Reply {
  return { status: 200, body: { success: true, message: text } };
}

/** A body outside the envelope (health checks). */
export function raw(body: unknown, status = 200): Reply {
  return { status, body };
}

/**
 * The paging of a list: `total` is a plain count (exact), or a counted total that may be an
 * estimate. A list that serves only its first `served` results has no pages past them.
 */
export function pagination(page: number, limit: number, total: number | { total: number; exact: boolean }, served = Number.POSITIVE_INFINITY): Pagination {
  const { total: count, exact } = typeof total === 'number' ? { total, exact: true } : total;
  return { page, limit, total: count, totalPages: Math.ceil(Math.min(count, served) / limit), totalExact: exact };
}

/** A page or asset sent as is, with its own content type and caching headers. */
export function content(body: string | Buffer, contentType: string, headers: Record<string, string> = {}): Reply {
  return { status: 200, body, contentType, headers: { 'Cache-Control': 'no-store', ...headers } };
}

/**
 * A body written as it is read, in constant memory whatever its length: a `200` with its own type.
 * Its headers are out before it ends, so a failure past that point cuts the connection.
 */
export function streamed(body: Readable, contentType: string, headers: Record<string, string> = {}): Reply {
  return { status: 200, body, contentType, headers: { 'Cache-Control': 'no-store', ...headers } };
}
