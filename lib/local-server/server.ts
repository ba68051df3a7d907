import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { config } from '../config.js';
import { log } from '../log.js';
import type { RouteHandler } from '../http/route.js';
import { ApiError, errorEnvelope } from '../http/api-error.js';
import { projectRoutes, type Rewrite } from '../platform/project-routes.js';
import { installRequestContext, loggedPurge } from '../platform/request-context.js';
import { keepIdleConnections } from '../platform/idle-connections.js';
import { fileLookup, resolvePlatformRoute } from '../platform/routes.js';
import { STATIC_FILES } from '../platform/static-files.js';
import { sendPlatformRedirect, sendPlatformStatus } from '../platform/status-page.js';
import { discoverRoutes } from './route-table.js';
import { serveUpload } from '../platform/static-uploads.js';
import { webRequestOf, writeWebResponse } from '../platform/web-adapter.js';

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

/**
 * Serves the `api/` tree routed by the platform's own rules (lib/platform): the function a path
 * names first, then the `vercel.json` rewrites in order, then the functions with path parameters
 * (passed in the query string) and the not-found function, as the build's routes place them.
 * Each function module is imported on its first request. Local image files are served from
 * `/uploads/`, and the deployment's static files as the build writes them. Cache purges reach the
 * platform's purge API through the request context, which logs them here: no CDN keeps anything.
 */
export function createLocalServer({ projectRoot }: LocalServerOptions): http.Server {
  installRequestContext({ purge: loggedPurge });
  const discovered = discoverRoutes(path.join(projectRoot, 'api'));
  const functions = new Map(discovered.map((route) => [`api/${route.file}`, route.modulePath]));
  const lookup = fileLookup(new Set([...functions.keys(), ...Object.keys(STATIC_FILES)]));
  const routes = projectRoutes(readRewrites(projectRoot), discovered);
  const modules = new Map<string, Promise<RouteHandler>>();

  const load = (modulePath: string): Promise<RouteHandler> => {
    let loaded = modules.get(modulePath);
    if (!loaded) {
      loaded = import(pathToFileURL(modulePath).href).then((module: { default: RouteHandler }) => module.default);
      modules.set(modulePath, loaded);
    }
    return loaded;
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const handle = async () => {
      const method = req.method ?? 'GET';
      if (url.pathname.startsWith('/uploads/') && (method === 'GET' || method === 'HEAD')) {
        if (await serveUpload(config().uploadDir, url.pathname, res, method === 'HEAD')) return;
      }
      const target = resolvePlatformRoute(routes, lookup, url.pathname, url.searchParams, method);
      if (target.kind === 'status') return sendPlatformStatus(req, res, target.status);
      if (target.kind === 'redirect') return sendPlatformRedirect(req, res, target.status, target.location);
      const staticFile = STATIC_FILES[target.name];
      if (staticFile !== undefined) {
        for (const [name, value] of Object.entries(target.headers)) res.setHeader(name, value);
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.end(method === 'HEAD' ? undefined : staticFile);
        return;
      }
      const search = target.search.toString();
      const handler = await load(functions.get(target.name)!);
      const response = await handler.fetch(webRequestOf(req, `/${target.name}${search ? `?${search}` : ''}`), { remoteAddress: req.socket.remoteAddress });
      await writeWebResponse(res, response, target.headers);
    };
    handle().catch((error: unknown) => {
      log.error('local server failure', { error });
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.end(JSON.stringify(errorEnvelope(new ApiError(500, 'Internal server error'))));
      } else {
        res.destroy();
      }
    });
  });
  return keepIdleConnections(server);
}
