import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import { log } from '../log.js';

/**
 * A request as the route wrapper reads it, whichever way the function was invoked: by a Node
 * server (`(req, res)`) or by the platform's Web signature (`fetch(request)`); and the answer
 * written back the same way.
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
 * What the wrapper answers, before it is written to a Node response or a Web `Response`. A stream
 * is written as it is read, at the pace the client takes it (a long export in constant memory).
 */
export interface OutgoingResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer | Readable | null;
}

export function fromNodeRequest(req: IncomingMessage): IncomingRequest {
  return { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: req, remoteAddress: req.socket.remoteAddress };
}

function headersOf(request: Request): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

export function fromWebRequest(request: Request): IncomingRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    url: `${url.pathname}${url.search}`,
    headers: headersOf(request),
    body: request.body ? Readable.fromWeb(request.body as NodeWebStream<Uint8Array>) : Readable.from([]),
    remoteAddress: undefined,
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

export async function writeNodeResponse(res: ServerResponse, response: OutgoingResponse): Promise<void> {
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.statusCode = response.status;
  const { body } = response;
  if (!(body instanceof Readable)) {
    res.end(body ?? undefined);
    return;
  }
  if (bodiless(res.req.method ?? 'GET', response.status)) {
    body.destroy();
    res.end();
    return;
  }
  await pipeline(body, res).catch(streamFailed);
}

export function webResponse(method: string, response: OutgoingResponse): Response {
  const { body } = response;
  if (bodiless(method, response.status)) {
    if (body instanceof Readable) body.destroy();
    return new Response(null, { status: response.status, headers: response.headers });
  }
  if (!(body instanceof Readable)) return new Response(body, { status: response.status, headers: response.headers });
  body.on('error', streamFailed);
  return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, { status: response.status, headers: response.headers });
}
