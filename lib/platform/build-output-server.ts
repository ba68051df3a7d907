import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { config } from '../config.js';
import { serveUpload } from './static-uploads.js';
import { log } from '../log.js';
import { launchFunction, type LaunchedFunction } from './function-launcher.js';
import { installRequestContext, loggedPurge } from './request-context.js';
import { fileLookup, resolvePlatformRoute, type PlatformRoute } from './routes.js';
import { keepIdleConnections } from './idle-connections.js';
import { sendPlatformRedirect, sendPlatformStatus } from './status-page.js';

/** Work a function handed to `waitUntil`: the response is sent, the invocation lives on until it settles. */
const pending = new Set<Promise<unknown>>();

function waitUntil(promise: Promise<unknown>): void {
  const tracked = promise.catch(() => undefined).finally(() => pending.delete(tracked));
  pending.add(tracked);
}

function listFiles(dir: string, suffix: string, prefix = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory() && suffix && entry.name.endsWith(suffix)) return [relative.slice(0, -suffix.length)];
    if (entry.isDirectory()) return listFiles(path.join(dir, entry.name), suffix, relative);
    return suffix ? [] : [relative];
  });
}

const STATIC_TYPES: Record<string, string> = { '.txt': 'text/plain; charset=utf-8', '.html': 'text/html; charset=utf-8', '.json': 'application/json' };

export interface BuildOutput {
  routes: PlatformRoute[];
  functions: string[];
  staticFiles: string[];
}

export function readBuildOutput(outputDir: string): BuildOutput {
  const { routes } = JSON.parse(fs.readFileSync(path.join(outputDir, 'config.json'), 'utf8')) as { routes?: PlatformRoute[] };
  return {
    routes: routes ?? [],
    functions: listFiles(path.join(outputDir, 'functions'), '.func'),
    staticFiles: listFiles(path.join(outputDir, 'static'), ''),
  };
}

/**
 * Serves a `vercel build` output folder the way the platform does: `config.json`'s routes in
 * order with their phases, static files, and each function loaded from its own `.func` folder
 * (its own module graph, its `.vc-config.json` honoured) once, then kept warm. The platform's
 * client-address headers are set from the connection, replacing whatever the client sent.
 * `@vercel/functions` finds `waitUntil` and the purge API through the request context, as there.
 * With local storage (`STORAGE_PROVIDER=local`), the photos the functions write are served from
 * `/uploads/` as the local server serves them; a deployment keeps them on the image host instead.
 */
export function createBuildOutputServer(outputDir: string): http.Server & { settle: () => Promise<void> } {
  installRequestContext({ waitUntil, purge: loggedPurge });
  const output = readBuildOutput(outputDir);
  const functions = new Set(output.functions);
  const lookup = fileLookup(new Set([...output.functions, ...output.staticFiles]));
  const { storageProvider, uploadDir } = config();
  const launched = new Map<string, Promise<LaunchedFunction>>();
  const launch = (name: string) => {
    let entry = launched.get(name);
    if (!entry) {
      entry = launchFunction(path.join(outputDir, 'functions', `${name}.func`));
      launched.set(name, entry);
    }
    return entry;
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const handle = async () => {
      const method = req.method ?? 'GET';
      if (storageProvider === 'local' && url.pathname.startsWith('/uploads/') && (method === 'GET' || method === 'HEAD')) {
        if (await serveUpload(uploadDir, url.pathname, res, method === 'HEAD')) return;
      }
      const target = resolvePlatformRoute(output.routes, lookup, url.pathname, url.searchParams, method);
      if (target.kind === 'status') return sendPlatformStatus(req, res, target.status);
      if (target.kind === 'redirect') return sendPlatformRedirect(req, res, target.status, target.location);
      if (!functions.has(target.name)) {
        const file = path.join(outputDir, 'static', target.name);
        for (const [name, value] of Object.entries(target.headers)) res.setHeader(name, value);
        res.setHeader('Content-Type', STATIC_TYPES[path.extname(file)] ?? 'application/octet-stream');
        res.end(req.method === 'HEAD' ? undefined : fs.readFileSync(file));
        return;
      }
      const client = req.socket.remoteAddress ?? '';
      req.headers['x-forwarded-for'] = client;
      req.headers['x-real-ip'] = client;
      req.headers['x-vercel-forwarded-for'] = client;
      const search = target.search.toString();
      req.url = `/${target.name}${search ? `?${search}` : ''}`;
      const fn = await launch(target.name);
      await fn.invoke(req, res, target.headers);
    };
    handle().catch((error: unknown) => {
      log.error('function invocation failed', { path: url.pathname, error });
      if (res.headersSent) return void res.destroy();
      res.statusCode = 500;
      res.setHeader('X-Vercel-Error', 'FUNCTION_INVOCATION_FAILED');
      res.end('A server error has occurred\n\nFUNCTION_INVOCATION_FAILED\n');
    });
  });
  return Object.assign(keepIdleConnections(server), {
    settle: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  });
}
