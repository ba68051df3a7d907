import type { RouteHandler } from '../http/route.js';

type RouteModule = () => Promise<{ default: RouteHandler }>;

/**
 * Every function under `api/`, by the URL pattern the platform serves it at, imported on demand.
 *
 * A static list rather than a scan of `api/` at run time: locally the folder is there to scan, but a
 * deployed function holds only its own compiled bundle, and the bundler follows these literal
 * `import()` calls into it, so the document is the same in both places. `tests/openapi.test.ts`
 * compares this list with `discoverRoutes('api')`, so a new route file cannot be left out silently.
 */
export const ROUTE_MODULES: Record<string, RouteModule> = {
  '/api': () => import('../../api/index.js'),
  '/api/admin/audit': () => import('../../api/admin/audit.js'),
  '/api/admin/seed-categories': () => import('../../api/admin/seed-categories.js'),
  '/api/auth/agent-codes': () => import('../../api/auth/agent-codes/index.js'),
  '/api/auth/agent-codes/:id': () => import('../../api/auth/agent-codes/[id].js'),
  '/api/auth/agents': () => import('../../api/auth/agents/index.js'),
  '/api/auth/agents/:id': () => import('../../api/auth/agents/[id].js'),
  '/api/auth/forgot-password': () => import('../../api/auth/forgot-password.js'),
  '/api/auth/login': () => import('../../api/auth/login.js'),
  '/api/auth/me': () => import('../../api/auth/me.js'),
  '/api/auth/register': () => import('../../api/auth/register.js'),
  '/api/auth/reset-password': () => import('../../api/auth/reset-password.js'),
  '/api/auth/verify-agent-code': () => import('../../api/auth/verify-agent-code.js'),
  '/api/categories': () => import('../../api/categories/index.js'),
  '/api/categories/:id': () => import('../../api/categories/[id].js'),
  '/api/commissions/asset-stats': () => import('../../api/commissions/asset-stats.js'),
  '/api/commissions/listing/:id': () => import('../../api/commissions/listing/[id].js'),
  '/api/commissions/listings': () => import('../../api/commissions/listings.js'),
  '/api/commissions/summary': () => import('../../api/commissions/summary.js'),
  '/api/docs': () => import('../../api/docs/index.js'),
  '/api/docs/:asset': () => import('../../api/docs/[asset].js'),
  '/api/health': () => import('../../api/health/index.js'),
  '/api/health/ready': () => import('../../api/health/ready.js'),
  '/api/cron/sweep': () => import('../../api/cron/sweep.js'),
  '/api/listings': () => import('../../api/listings/index.js'),
  '/api/listings/:id': () => import('../../api/listings/[id].js'),
  '/api/notifications': () => import('../../api/notifications/index.js'),
  '/api/notifications/:id/read': () => import('../../api/notifications/[id]/read.js'),
  '/api/notifications/read-all': () => import('../../api/notifications/read-all.js'),
  '/api/public/filter-options': () => import('../../api/public/filter-options.js'),
  '/api/public/listings': () => import('../../api/public/listings/index.js'),
  '/api/public/listings/:id': () => import('../../api/public/listings/[id].js'),
  '/api/public/listings/:id/inquiry': () => import('../../api/public/listings/[id]/inquiry.js'),
  '/api/public/messenger-bot': () => import('../../api/public/messenger-bot.js'),
  '/api/public/suggest': () => import('../../api/public/suggest.js'),
  '/api/settings': () => import('../../api/settings/index.js'),
  '/api/syndication/config': () => import('../../api/syndication/config/index.js'),
  '/api/syndication/config/:platform': () => import('../../api/syndication/config/[platform].js'),
  '/api/syndication/delete-message/:messageId': () => import('../../api/syndication/delete-message/[messageId].js'),
  '/api/syndication/edit-message/:messageId': () => import('../../api/syndication/edit-message/[messageId].js'),
  '/api/syndication/health': () => import('../../api/syndication/health.js'),
  '/api/syndication/logs': () => import('../../api/syndication/logs.js'),
  '/api/syndication/messenger/info': () => import('../../api/syndication/messenger/info.js'),
  '/api/syndication/messenger/setup-webhook': () => import('../../api/syndication/messenger/setup-webhook.js'),
  '/api/syndication/messenger/webhook': () => import('../../api/syndication/messenger/webhook.js'),
  '/api/syndication/messenger/webhook-info': () => import('../../api/syndication/messenger/webhook-info.js'),
  '/api/syndication/retry/:id': () => import('../../api/syndication/retry/[id].js'),
  '/api/syndication/trigger/:listingId': () => import('../../api/syndication/trigger/[listingId].js'),
  '/api/uploads/signature': () => import('../../api/uploads/signature.js'),
};

/** The platform's fallback for unknown paths (a `vercel.json` rewrite), not an operation of its own. */
export const UNDOCUMENTED_ROUTES = ['/api/not-found'];

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
