import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { webRequestOf, writeWebResponse } from './web-adapter.js';

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
  /** Calls the function with `req` (its URL the one routing chose) and writes its answer over the routes' headers. */
  invoke: (req: IncomingMessage, res: ServerResponse, routeHeaders?: Record<string, string>) => Promise<void>;
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
    invoke: async (req, res, routeHeaders) => {
      const handler = handlerFor(req.method ?? 'GET');
      const response = handler ? await handler(webRequestOf(req, req.url ?? '/')) : new Response(null, { status: 405 });
      await writeWebResponse(res, response, routeHeaders);
    },
  };
}
