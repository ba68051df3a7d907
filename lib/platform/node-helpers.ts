import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The platform re-plays a consumed body to `data`/`end` listeners and `read()`; the stream itself has ended. */
function replayBody(req: IncomingMessage, body: Buffer): void {
  const replay = new PassThrough();
  const on = replay.on.bind(replay);
  const originalOn = req.on.bind(req);
  req.read = replay.read.bind(replay);
  req.on = req.addListener = ((event: string, listener: (...args: unknown[]) => void) =>
    event === 'data' || event === 'end' ? on(event, listener) : originalOn(event, listener)) as typeof req.on;
  replay.end(body);
}

function parseBody(body: Buffer, contentType: string | undefined): unknown {
  const type = (contentType ?? 'text/plain').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') return body.length ? (JSON.parse(body.toString()) as unknown) : {};
  if (type === 'application/octet-stream') return body;
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(body.toString()));
  if (type === 'text/plain') return body.toString();
  return undefined;
}

/**
 * What the platform's Node launcher does to a Node-signature function when `shouldAddHelpers` is
 * on: it reads the whole body before the function runs, then offers it as a lazily parsed
 * `req.body` (nothing for multipart), `req.query`, and `res.status/json/send`.
 */
export async function addNodeHelpers(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const contentType = req.headers['content-type'];
  const body = contentType === undefined ? Buffer.alloc(0) : await readAll(req);
  replayBody(req, body);
  const lazy = (name: string, compute: () => unknown) => {
    Object.defineProperty(req, name, { configurable: true, enumerable: true, get: () => compute() });
  };
  lazy('body', () => parseBody(body, contentType));
  lazy('query', () => Object.fromEntries(new URL(req.url ?? '/', 'http://localhost').searchParams));
  const helpers = res as ServerResponse & Record<string, unknown>;
  helpers.status = (status: number) => {
    res.statusCode = status;
    return res;
  };
  helpers.send = (payload: unknown) => res.end(payload);
  helpers.json = (payload: unknown) => {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    return res.end(JSON.stringify(payload));
  };
}
