import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';

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

/** What the wrapper answers, before it is written to a Node response or a Web `Response`. */
export interface OutgoingResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer | null;
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

export function writeNodeResponse(res: ServerResponse, response: OutgoingResponse): void {
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.statusCode = response.status;
  res.end(response.body ?? undefined);
}

export function webResponse(method: string, response: OutgoingResponse): Response {
  const body = method === 'HEAD' || response.status === 204 || response.status === 304 ? null : response.body;
  return new Response(body, { status: response.status, headers: response.headers });
}
