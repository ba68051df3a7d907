import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { config } from '../config.js';
import { log } from '../log.js';
import { applyCors } from '../http/cors.js';
import type { RouteHandler } from '../http/route.js';
import { applyRewrites, discoverRoutes, matchRoute, type FunctionRoute, type Rewrite } from './route-table.js';
import { serveUpload } from './static-uploads.js';

export interface LocalServerOptions {
  /** The project folder holding `api/` and `vercel.json`. */
  projectRoot: string;
}

function readRewrites(projectRoot: string): Rewrite[] {
  const file = path.join(projectRoot, 'vercel.json');
  if (!fs.existsSync(file)) return [];
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { rewrites?: Rewrite[] };
  return parsed.rewrites ?? [];
}

function notFound(req: http.IncomingMessage, res: http.ServerResponse): void {
  req.resume();
  applyCors(req, res);
  res.statusCode = 404;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify({ success: false, error: `Route ${req.method ?? 'GET'} ${new URL(req.url ?? '/', 'http://localhost').pathname} not found` }));
}

/**
 * Serves the `api/` tree as the serverless platform routes it: filesystem routes first (static
 * segments before dynamic ones, `index` files for folders), then `vercel.json` rewrites. Dynamic
 * segments are passed in the query string, as the platform passes them. Each function module is
 * imported on its first request.
 */
export function createLocalServer({ projectRoot }: LocalServerOptions): http.Server {
  const routes = discoverRoutes(path.join(projectRoot, 'api'));
  const rewrites = readRewrites(projectRoot);
  const modules = new Map<string, Promise<RouteHandler>>();

  const load = (route: FunctionRoute): Promise<RouteHandler> => {
    let loaded = modules.get(route.modulePath);
    if (!loaded) {
      loaded = import(pathToFileURL(route.modulePath).href).then((module: { default: RouteHandler }) => module.default);
      modules.set(route.modulePath, loaded);
    }
    return loaded;
  };

  const resolve = (pathname: string) => {
    const direct = matchRoute(routes, pathname);
    if (direct) return direct;
    const rewritten = applyRewrites(rewrites, pathname);
    return rewritten ? matchRoute(routes, new URL(rewritten, 'http://localhost').pathname) : undefined;
  };

  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const handle = async () => {
      const method = req.method ?? 'GET';
      if (pathname.startsWith('/uploads/') && (method === 'GET' || method === 'HEAD')) {
        if (await serveUpload(config().uploadDir, pathname, res, method === 'HEAD')) return;
        return notFound(req, res);
      }
      const match = resolve(pathname);
      if (!match) return notFound(req, res);
      for (const [name, value] of Object.entries(match.params)) url.searchParams.set(name, value);
      req.url = `${pathname}${url.search}`;
      const handler = await load(match.route);
      await handler(req, res);
    };
    handle().catch((error: unknown) => {
      log.error('local server failure', { error });
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.end(JSON.stringify({ success: false, error: 'Internal server error' }));
      } else {
        res.destroy();
      }
    });
  });
}
