import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';

/**
 * The one adapter between Node's HTTP server and a function's Web signature, as the platform's
 * Node launcher is: the local server and the build output's server both hand every function a
 * `Request` and write back the `Response` it answers.
 */

/** The request as a function receives it: `url` is the path and query the platform's routing chose. */
export function webRequestOf(req: IncomingMessage, url: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(`http://${req.headers.host ?? 'localhost'}${url}`, {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: 'half',
  } as RequestInit);
}

/**
 * Writes a function's answer, over the headers its routes added (`routeHeaders`; the function's
 * own header of the same name wins): the body at the pace the client reads it, and, when the client
 * goes away first, the function's stream cancelled (an export stops reading the database).
 */
export async function writeWebResponse(res: ServerResponse, response: Response, routeHeaders: Record<string, string> = {}): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(routeHeaders)) res.setHeader(name, value);
  response.headers.forEach((value, name) => res.setHeader(name, name === 'set-cookie' ? response.headers.getSetCookie() : value));
  if (!response.body) {
    res.end();
    return;
  }
  // A body of known length is whole already: written at once, without a stream between.
  if (response.headers.has('content-length')) {
    res.end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  await pipeline(Readable.fromWeb(response.body as NodeWebStream<Uint8Array>), res).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
  });
}
