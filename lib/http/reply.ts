import type { Readable } from 'node:stream';

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  /** False when `total` is an estimate, past what a list counts one by one. */
  totalExact: boolean;
}

/** What a handler returns: the route wrapper writes it. `Body` is what the endpoint's declared answer allows. */
export interface Reply<Body = unknown> {
  status: number;
  body: Body;
  headers?: Record<string, string>;
  /** Set when `body` is already encoded (a page, an asset, or a stream) and is sent as is, with its own type. */
  contentType?: string;
}

/** Envelope members beside `data` (a list's paging, its totals). */
type Beside = Record<string, unknown>;
type NothingBeside = Record<never, never>;

/** `{ success: true, data, ...beside }`, the success envelope. */
export type DataReply<Data, Extra extends Beside = NothingBeside> = Reply<{ success: true; data: Data } & Extra>;

/** A page of a list: its items in `data`, and `pagination` beside them. */
export type PageReply<Item, Extra extends Beside = NothingBeside> = DataReply<Item[], { pagination: Pagination } & Extra>;

/** `{ success: true, message }`, for endpoints whose contract carries only a message. */
export type MessageReply = Reply<{ success: true; message: string }>;

/** `{ success: true }` alone: the request was taken. */
export type AcknowledgementReply = Reply<{ success: true }>;

/** A health check's answer, outside the envelope. */
export type HealthReply = Reply<{ status: 'ok'; timestamp: string; checks?: Record<string, string> }>;

/** A page or an asset, already encoded, with its own content type. */
export type ContentReply = Reply<string | Buffer>;

/** A body written as it is read. */
export type StreamedReply = Reply<Readable>;

export function ok<Data, Extra extends Beside = NothingBeside>(data: Data, extra?: Extra, status = 200): DataReply<Data, Extra> {
  return { status, body: { success: true, data, ...extra } as { success: true; data: Data } & Extra };
}

export function created<Data>(data: Data): DataReply<Data> {
  return ok(data, {}, 201);
}

export function paginated<Item>(data: Item[], pagination: Pagination): PageReply<Item> {
  return ok(data, { pagination });
}

export function message(text: string): MessageReply {
  return { status: 200, body: { success: true, message: text } };
}

export function acknowledged(): AcknowledgementReply {
  return { status: 200, body: { success: true } };
}

/** The 200 of a HEAD request: no body goes to HEAD, so none is made, and it stands for any the GET answers. */
export function headOk(): Reply<never> {
  return { status: 200, body: undefined as never };
}

/** A body outside the envelope (health checks, the OpenAPI document). */
export function raw<Body>(body: Body, status = 200): Reply<Body> {
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
export function content(body: string | Buffer, contentType: string, headers: Record<string, string> = {}): ContentReply {
  return { status: 200, body, contentType, headers: { 'Cache-Control': 'no-store', ...headers } };
}

/**
 * A body written as it is read, in constant memory whatever its length: a `200` with its own type.
 * Its headers are out before it ends, so a failure past that point cuts the connection.
 */
export function streamed(body: Readable, contentType: string, headers: Record<string, string> = {}): StreamedReply {
  return { status: 200, body, contentType, headers: { 'Cache-Control': 'no-store', ...headers } };
}
