import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import { log } from '../log.js';

/**
 * A request as the route wrapper reads it from the `Request` its function's `fetch` is given, by
 * the platform or by the local server alike; and the answer before it becomes a `Response`.
 */
export interface IncomingRequest {
  method: string;
  /** Path and query string, as the platform passes them (dynamic segments in the query). */
  url: string;
  /** Header names in lower case. */
  headers: IncomingHttpHeaders;
  /** The body, read at most once. */
  body: Readable;
  /** The connection's peer, where the transport has one. */
  remoteAddress: string | undefined;
}

/**
 * What the wrapper answers, before it becomes a Web `Response`. A stream
 * is written as it is read, at the pace the client takes it (a long export in constant memory).
 */
export interface OutgoingResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer | Readable | null;
}

function headersOf(request: Request): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/** What the server that received a request knows of its connection, beyond the request itself. */
export interface Connection {
  /** The connection's peer. */
  remoteAddress?: string;
}

export function fromWebRequest(request: Request, connection: Connection = {}): IncomingRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    url: `${url.pathname}${url.search}`,
    headers: headersOf(request),
    body: request.body ? Readable.fromWeb(request.body as NodeWebStream<Uint8Array>) : Readable.from([]),
    remoteAddress: connection.remoteAddress,
  };
}

export function contentTypeOf(request: IncomingRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Reads and drops whatever is left of a body that will not be used, so the connection can be reused. */
export function discardBody(request: IncomingRequest): void {
  if (!request.body.readableEnded) request.body.resume();
}

/** Whether an answer goes without its body: to HEAD, and as 204 or 304. */
function bodiless(method: string, status: number): boolean {
  return method === 'HEAD' || status === 204 || status === 304;
}

/**
 * A stream that fails once its headers are out can no longer become an error answer: the
 * connection is cut (the client sees a truncated body, never a complete-looking one) and the cause logged.
 */
function streamFailed(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
  log.error('streamed answer failed', { error });
}

export function webResponse(method: string, response: OutgoingResponse): Response {
  const { body } = response;
  if (bodiless(method, response.status)) {
    if (body instanceof Readable) body.destroy();
    return new Response(null, { status: response.status, headers: response.headers });
  }
  if (!(body instanceof Readable)) {
    // A whole body says its length, so it goes out in one piece rather than chunked.
    const length = body === null ? 0 : Buffer.byteLength(body);
    return new Response(body, { status: response.status, headers: { ...response.headers, 'Content-Length': String(length) } });
  }
  body.on('error', streamFailed);
  return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, { status: response.status, headers: response.headers });
}
