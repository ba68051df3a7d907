import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';

/** A function's `.vc-config.json`, the part a Node launcher reads. */
export interface FunctionConfig {
  handler: string;
  launcherType?: string;
  maxDuration?: number;
}

type WebHandler = (request: Request) => Promise<Response> | Response;

const WEB_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

export interface LaunchedFunction {
  config: FunctionConfig;
  invoke: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

function toWebRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: 'half',
  } as RequestInit);
}

async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body) {
    res.end();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    Readable.fromWeb(response.body as NodeWebStream<Uint8Array>).on('error', reject).pipe(res).on('finish', resolve).on('error', reject);
  });
}

/**
 * Loads one function from its `.func` folder as the platform's Node launcher does: the handler
 * module in the folder's own module graph (its own copies of every dependency), its default export
 * unwrapped, and invoked through its Web signature (`fetch`, or one function per method), which
 * every function of this project exports and which the platform's Node helpers never touch.
 */
export async function launchFunction(funcDir: string): Promise<LaunchedFunction> {
  const config = JSON.parse(fs.readFileSync(path.join(funcDir, '.vc-config.json'), 'utf8')) as FunctionConfig;
  let exported = (await import(pathToFileURL(path.join(funcDir, config.handler)).href)) as Record<string, unknown>;
  for (let depth = 0; depth < 5 && exported.default; depth += 1) exported = exported.default as Record<string, unknown>;
  const handlerFor = (method: string): WebHandler | undefined =>
    typeof exported.fetch === 'function' ? (exported.fetch as WebHandler) : typeof exported[method] === 'function' ? (exported[method] as WebHandler) : undefined;
  if (!WEB_METHODS.some((method) => handlerFor(method))) throw new Error(`${config.handler} exports no Web handler (fetch, or one per method)`);
  return {
    config,
    invoke: async (req, res) => {
      const handler = handlerFor(req.method ?? 'GET');
      const response = handler ? await handler(toWebRequest(req)) : new Response(null, { status: 405 });
      await writeWebResponse(res, response);
    },
  };
}
