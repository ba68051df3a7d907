import type { RouteModules } from '../lib/openapi/route-modules.js';

/**
 * Every function under `api/`, by the URL pattern the platform serves it at, imported on demand:
 * what the OpenAPI document (`openapi.json.ts`) is built from. The leading `_` keeps this file from
 * being a function itself, on the platform and in `discoverRoutes`.
 *
 * A static list rather than a scan of `api/` at run time: locally the folder is there to scan, but a
 * deployed function holds only its own compiled bundle, and the bundler follows these literal
 * `import()` calls into it, so the document is the same in both places. `tests/openapi.test.ts`
 * compares this list with `discoverRoutes('api')`, so a new route file cannot be left out silently.
 */
export const ROUTE_MODULES: RouteModules = {
  '/api': () => import('./index.js'),
  '/api/admin/audit': () => import('./admin/audit.js'),
  '/api/admin/seed-categories': () => import('./admin/seed-categories.js'),
  '/api/auth/agent-codes': () => import('./auth/agent-codes/index.js'),
  '/api/auth/agent-codes/:id': () => import('./auth/agent-codes/[id].js'),
  '/api/auth/agents': () => import('./auth/agents/index.js'),
  '/api/auth/agents/:id': () => import('./auth/agents/[id].js'),
  '/api/auth/forgot-password': () => import('./auth/forgot-password.js'),
  '/api/auth/login': () => import('./auth/login.js'),
  '/api/auth/me': () => import('./auth/me.js'),
  '/api/auth/register': () => import('./auth/register.js'),
  '/api/auth/reset-password': () => import('./auth/reset-password.js'),
  '/api/auth/verify-agent-code': () => import('./auth/verify-agent-code.js'),
  '/api/categories': () => import('./categories/index.js'),
  '/api/categories/:id': () => import('./categories/[id].js'),
  '/api/commissions/asset-stats': () => import('./commissions/asset-stats.js'),
  '/api/commissions/listing/:id': () => import('./commissions/listing/[id].js'),
  '/api/commissions/listings': () => import('./commissions/listings.js'),
  '/api/commissions/summary': () => import('./commissions/summary.js'),
  '/api/docs': () => import('./docs/index.js'),
  '/api/docs/:asset': () => import('./docs/[asset].js'),
  '/api/health': () => import('./health/index.js'),
  '/api/health/ready': () => import('./health/ready.js'),
  '/api/cron/sweep': () => import('./cron/sweep.js'),
  '/api/listings': () => import('./listings/index.js'),
  '/api/listings/:id': () => import('./listings/[id].js'),
  '/api/listings/:id/restore': () => import('./listings/[id]/restore.js'),
  '/api/listings/export': () => import('./listings/export.js'),
  '/api/listings/import': () => import('./listings/import.js'),
  '/api/notifications': () => import('./notifications/index.js'),
  '/api/notifications/:id/read': () => import('./notifications/[id]/read.js'),
  '/api/notifications/read-all': () => import('./notifications/read-all.js'),
  '/api/public/filter-options': () => import('./public/filter-options.js'),
  '/api/public/listings': () => import('./public/listings/index.js'),
  '/api/public/listings/:id': () => import('./public/listings/[id].js'),
  '/api/public/listings/:id/inquiry': () => import('./public/listings/[id]/inquiry.js'),
  '/api/public/messenger-bot': () => import('./public/messenger-bot.js'),
  '/api/public/suggest': () => import('./public/suggest.js'),
  '/api/settings': () => import('./settings/index.js'),
  '/api/syndication/config': () => import('./syndication/config/index.js'),
  '/api/syndication/config/:platform': () => import('./syndication/config/[platform].js'),
  '/api/syndication/delete-message/:messageId': () => import('./syndication/delete-message/[messageId].js'),
  '/api/syndication/edit-message/:messageId': () => import('./syndication/edit-message/[messageId].js'),
  '/api/syndication/health': () => import('./syndication/health.js'),
  '/api/syndication/logs': () => import('./syndication/logs.js'),
  '/api/syndication/messenger/info': () => import('./syndication/messenger/info.js'),
  '/api/syndication/messenger/setup-webhook': () => import('./syndication/messenger/setup-webhook.js'),
  '/api/syndication/messenger/webhook': () => import('./syndication/messenger/webhook.js'),
  '/api/syndication/messenger/webhook-info': () => import('./syndication/messenger/webhook-info.js'),
  '/api/syndication/retry/:id': () => import('./syndication/retry/[id].js'),
  '/api/syndication/trigger/:listingId': () => import('./syndication/trigger/[listingId].js'),
  '/api/uploads/signature': () => import('./uploads/signature.js'),
};
