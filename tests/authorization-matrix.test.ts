import crypto from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { listings, notifications, syndicationLogs, users } from '../lib/db/schema.js';
import { notify } from '../lib/notifications/notify.js';
import type { RouteHandler } from '../lib/http/route.js';
import { discoverRoutes } from '../lib/local-server/route-table.js';
import { buildListing } from './support/catalog-factories.js';
import { buildAgent, expiredToken } from './support/factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

/**
 * Every function under api/ and every method it declares, discovered from the files, so a new
 * route is covered the moment it exists. Each is called with no token, a malformed token, an
 * expired one, a deleted user's, an agent's and an administrator's, and must answer as its
 * declared access says.
 */
const routes = discoverRoutes(path.resolve('api'));
const endpoints = (
  await Promise.all(
    routes.map(async (route) => {
      const handler = ((await import(pathToFileURL(route.modulePath).href)) as { default: RouteHandler }).default;
      return Object.entries(handler.endpoints).map(([method, endpoint]) => ({ method, pattern: route.pattern, access: endpoint!.access }));
    }),
  )
).flat();

const PARAM_VALUES: Record<string, string> = { messageId: '1', platform: 'MESSENGER' };

function concretePath(pattern: string): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => PARAM_VALUES[name] ?? crypto.randomUUID());
}

// Outside services point at a closed loopback port: nothing here may leave the machine.
const CRON_SECRET = 'the-scheduler-secret-of-this-matrix';
const server = useTestServer({ MESSENGER_API_ROOT: 'http://127.0.0.1:9', RESEND_BASE_URL: 'http://127.0.0.1:9', CRON_SECRET });
const api = server.api;
const shop = useShop(server);
let expired: string;
let deletedUserToken: string;

beforeAll(async () => {
  expired = await expiredToken(shop.agent);
  const doomed = await buildAgent(server.db);
  deletedUserToken = doomed.token;
  await server.db.delete(users).where(eq(users.id, doomed.id));
});

describe('route discovery', () => {
  it('finds the functions and their declared access', () => {
    expect(endpoints.length).toBeGreaterThan(3);
    expect(endpoints).toContainEqual({ method: 'GET', pattern: '/api/health', access: 'public' });
    expect(endpoints).toContainEqual({ method: 'GET', pattern: '/api/listings/export', access: 'token' });
    expect(endpoints).toContainEqual({ method: 'POST', pattern: '/api/listings/import', access: 'token' });
  });
});

describe.each(endpoints)('$method $pattern ($access)', ({ method, pattern, access }) => {
  const call = (token?: string, rawHeader?: string) =>
    api.send(method, concretePath(pattern), rawHeader !== undefined ? { headers: { authorization: rawHeader } } : { token });

  if (access === 'cron') {
    it("answers only the scheduler's secret: no token, a user's token, an administrator's or a wrong secret get 401", async () => {
      for (const token of [undefined, shop.agent.token, shop.admin.token, 'not-the-secret', `${CRON_SECRET}x`]) {
        const response = await call(token);
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Only the scheduler may call this' });
      }
      const scheduled = await call(CRON_SECRET);
      expect(scheduled.status).toBe(200);
    });
    return;
  }

  if (access === 'public') {
    it('answers without a token, and ignores a bad one', async () => {
      for (const response of [await call(), await call('not-a-jwt')]) {
        expect(response.status).not.toBe(401);
        expect(response.status).not.toBe(403);
        expect(response.status).toBeLessThan(500);
      }
    });
    return;
  }

  it('refuses a request without a token', async () => {
    const response = await call();
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Missing or malformed Authorization header' });
  });

  it('refuses an empty bearer token and a header of another scheme', async () => {
    expect((await call(undefined, 'Bearer')).body.error).toBe('Token is empty');
    expect((await call(undefined, 'Basic dXNlcjpwYXNz')).body.error).toBe('Missing or malformed Authorization header');
  });

  it('refuses a malformed, an expired and a deleted user\'s token', async () => {
    const malformed = await call('not-a-jwt');
    expect(malformed.status).toBe(401);
    expect(malformed.body.error).toBe('Invalid token');
    const stale = await call(expired);
    expect(stale.status).toBe(401);
    expect(stale.body.error).toBe('Token has expired');
    const orphan = await call(deletedUserToken);
    expect(orphan.status).toBe(401);
    expect(orphan.body.error).toBe('User no longer exists');
  });

  it(access === 'admin' ? 'refuses an agent' : 'lets an agent past authentication', async () => {
    const response = await call(shop.agent.token);
    if (access === 'admin') {
      expect(response.status).toBe(403);
      expect(response.body.error).toBe('Role "AGENT" is not authorized for this resource');
    } else {
      expect(response.status).not.toBe(401);
      expect(response.body.error ?? '').not.toMatch(/^Role /);
      expect(response.status).toBeLessThan(500);
    }
  });

  it('lets an administrator past authentication', async () => {
    const response = await call(shop.admin.token);
    expect(response.status).not.toBe(401);
    expect(response.status).not.toBe(403);
    expect(response.status).toBeLessThan(500);
  });
});

/**
 * Routes whose path names something an agent owns: another agent must get 403 `Not authorized`
 * (or, for what a trash holds, 404 as if it did not exist) and the thing must stay as it was. Every
 * token route with a path parameter is either here or named as shared, so a new one cannot be forgotten.
 */
interface OwnedFixtures {
  listingId: string;
  notificationId: string;
  failedLogId: string;
}

const OWNED_RESOURCES: Record<string, (fixtures: OwnedFixtures) => string> = {
  '/api/listings/:id': (f) => f.listingId,
  '/api/notifications/:id/read': (f) => f.notificationId,
  '/api/syndication/retry/:id': (f) => f.failedLogId,
  '/api/syndication/trigger/:listingId': (f) => f.listingId,
};
/** Owned routes that answer another agent 404 `not found`: bringing a listing back from the trash. */
const HIDDEN_RESOURCES: Record<string, (fixtures: OwnedFixtures) => string> = {
  '/api/listings/:id/restore': (f) => f.listingId,
};
const SHARED_RESOURCES = new Set(['/api/syndication/config/:platform']);

describe('another agent on the first agent\'s resources', () => {
  let fixtures: OwnedFixtures;

  beforeAll(async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, stockQuantity: 3 });
    await notify(server.db, [{ userId: shop.agent.id, type: 'LISTING_CREATED', title: 'Listing created', data: { listingId: listing.id } }]);
    const [notification] = await server.db.select().from(notifications).where(eq(notifications.userId, shop.agent.id));
    const [log] = await server.db
      .insert(syndicationLogs)
      .values({ listingId: listing.id, platform: 'MESSENGER', status: 'FAILED', errorMessage: 'channel down' })
      .returning();
    fixtures = { listingId: listing.id, notificationId: notification!.id, failedLogId: log!.id };
  });

  it('covers every token route with a path parameter', () => {
    const parameterised = endpoints.filter((e) => e.access === 'token' && e.pattern.includes(':')).map((e) => e.pattern);
    for (const pattern of parameterised) expect(pattern in OWNED_RESOURCES || pattern in HIDDEN_RESOURCES || SHARED_RESOURCES.has(pattern), pattern).toBe(true);
  });

  const owned = endpoints.filter((e) => e.access === 'token' && e.pattern in OWNED_RESOURCES);
  it.each(owned)('$method $pattern answers 403 and changes nothing', async ({ method, pattern }) => {
    const before = await server.db.select().from(listings).where(eq(listings.id, fixtures.listingId));
    const target = pattern.replace(/:\w+/, OWNED_RESOURCES[pattern]!(fixtures));
    const response = await api.send(method, target, { token: shop.otherAgent.token, json: method === 'GET' || method === 'DELETE' ? undefined : { status: 'SOLD' } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Not authorized' });
    const after = await server.db.select().from(listings).where(eq(listings.id, fixtures.listingId));
    expect(after).toEqual(before);
  });

  const hidden = [
    ...endpoints.filter((e) => e.access === 'token' && e.pattern in HIDDEN_RESOURCES).map((e) => ({ ...e, query: '' })),
    { method: 'DELETE', pattern: '/api/listings/:id', access: 'token', query: '?permanent=true' },
  ];
  it.each(hidden)('$method $pattern$query answers 404 and changes nothing', async ({ method, pattern, query }) => {
    const before = await server.db.select().from(listings).where(eq(listings.id, fixtures.listingId));
    const target = pattern.replace(/:\w+/, (HIDDEN_RESOURCES[pattern] ?? OWNED_RESOURCES[pattern])!(fixtures)) + query;
    const response = await api.send(method, target, { token: shop.otherAgent.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: `Listing with id "${fixtures.listingId}" not found` });
    const after = await server.db.select().from(listings).where(eq(listings.id, fixtures.listingId));
    expect(after).toEqual(before);
  });
});
