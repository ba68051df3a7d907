import type { RouteHandler } from '../http/route.js';

/**
 * The functions the document describes, by URL pattern, each loaded on demand: the list is
 * api/_route-modules.ts, handed in by the function that serves the document.
 */
export type RouteModules = Record<string, () => Promise<{ default: Pick<RouteHandler, 'endpoints'> }>>;

/**
 * Not operations of the API: the platform's fallback for unknown paths, and the one-time page that
 * makes the first administrator in a browser (a 404 like an unknown path except through its link).
 */
export const UNDOCUMENTED_ROUTES = ['/api/not-found', '/api/setup'];

/**
 * The document's own route, described by the document itself (lib/openapi/document.ts) rather
 * than imported, since that route imports the document.
 */
export const SELF_DESCRIBED_ROUTES = ['/api/openapi.json'];

/** Paths `vercel.json` rewrites onto a function, documented as that function's operations too. */
export const ROUTE_ALIASES: Record<string, string> = {
  '/': '/api',
  '/health': '/api/health',
  '/api/public/telegram-bot': '/api/public/messenger-bot',
  '/api/syndication/telegram/info': '/api/syndication/messenger/info',
  '/api/syndication/telegram/setup-webhook': '/api/syndication/messenger/setup-webhook',
  '/api/syndication/telegram/webhook': '/api/syndication/messenger/webhook',
  '/api/syndication/telegram/webhook-info': '/api/syndication/messenger/webhook-info',
};

/** Aliases kept for the original service's clients: documented as deprecated, naming the path to use. */
export const DEPRECATED_ALIASES: ReadonlySet<string> = new Set(Object.keys(ROUTE_ALIASES).filter((alias) => alias.includes('telegram')));
