import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { notifications, users } from '../lib/db/schema.js';
import { notify } from '../lib/notifications/notify.js';
import { buildAdmin, buildAgent, expiredToken } from './support/factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
const shop = useShop(server);

type NotificationRow = typeof notifications.$inferSelect;

/** Inserts notifications one minute apart, oldest first, so their order is known. */
async function buildNotifications(userId: string, specs: Array<{ isRead?: boolean; title?: string }>): Promise<NotificationRow[]> {
  const start = Date.now() - specs.length * 60_000;
  return server.db
    .insert(notifications)
    .values(
      specs.map((spec, index) => ({
        userId,
        type: 'LISTING_CREATED',
        title: spec.title ?? `Listing ${index + 1} was created`,
        body: `Your listing number ${index + 1} is live.`,
        data: { listingId: crypto.randomUUID() },
        isRead: spec.isRead ?? false,
        createdAt: new Date(start + index * 60_000),
      })),
    )
    .returning();
}

function presented(row: NotificationRow) {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    type: row.type,
    data: row.data,
    isRead: row.isRead,
    createdAt: row.createdAt.toISOString(),
  };
}

async function storedNotifications(userId: string): Promise<NotificationRow[]> {
  return server.db.select().from(notifications).where(eq(notifications.userId, userId));
}

async function storedNotification(id: string): Promise<NotificationRow | undefined> {
  const [row] = await server.db.select().from(notifications).where(eq(notifications.id, id));
  return row;
}

// A test that reads or changes an inbox builds the agent who owns it, so it starts empty.
describe('GET /api/notifications', () => {
  it("lists only the caller's notifications, newest first, with the unread count and paging", async () => {
    const agent = await buildAgent(server.db);
    const other = await buildAgent(server.db);
    const rows = await buildNotifications(agent.id, [{ isRead: true }, {}, {}]);
    await buildNotifications(other.id, [{}, {}]);

    const response = await api.get('/api/notifications', { token: agent.token });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: [rows[2], rows[1], rows[0]].map((row) => presented(row!)),
      unreadCount: 2,
      pagination: { page: 1, limit: 20, total: 3 },
    });
  });

  it('lists notifications stored by notify() with their type, body and data', async () => {
    const agent = await buildAgent(server.db);
    const listingId = crypto.randomUUID();
    await notify(server.db, [
      { userId: agent.id, type: 'LISTING_SOLD', title: 'iPhone 15 Pro was sold', body: 'One unit of iPhone 15 Pro was sold.', data: { listingId } },
    ]);

    const response = await api.get('/api/notifications', { token: agent.token });

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      {
        id: expect.any(String),
        title: 'iPhone 15 Pro was sold',
        body: 'One unit of iPhone 15 Pro was sold.',
        type: 'LISTING_SOLD',
        data: { listingId },
        isRead: false,
        createdAt: expect.any(String),
      },
    ]);
    const [stored] = await storedNotifications(agent.id);
    expect(response.body.data[0]).toEqual(presented(stored!));
    expect(response.body.unreadCount).toBe(1);
  });

  it('pages with page and limit, keeping the totals of the whole list', async () => {
    const agent = await buildAgent(server.db);
    const rows = await buildNotifications(agent.id, [{}, { isRead: true }, {}, {}, { isRead: true }]);

    const response = await api.get('/api/notifications?page=2&limit=2', { token: agent.token });

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([presented(rows[2]!), presented(rows[1]!)]);
    expect(response.body.unreadCount).toBe(3);
    expect(response.body.pagination).toEqual({ page: 2, limit: 2, total: 5 });
  });

  it('lists only unread notifications with unreadOnly=true', async () => {
    const agent = await buildAgent(server.db);
    const rows = await buildNotifications(agent.id, [{}, { isRead: true }, {}, { isRead: true }]);

    const response = await api.get('/api/notifications?unreadOnly=true', { token: agent.token });

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([presented(rows[2]!), presented(rows[0]!)]);
    expect(response.body.unreadCount).toBe(2);
    expect(response.body.pagination).toEqual({ page: 1, limit: 20, total: 2 });
  });

  it('reports the totals on a page past the end', async () => {
    const agent = await buildAgent(server.db);
    await buildNotifications(agent.id, [{}, { isRead: true }, {}]);

    const response = await api.get('/api/notifications?page=3&limit=2', { token: agent.token });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: [], unreadCount: 2, pagination: { page: 3, limit: 2, total: 3 } });
  });

  it('answers an empty list for a user with no notifications', async () => {
    const agent = await buildAgent(server.db);
    const response = await api.get('/api/notifications', { token: agent.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: [], unreadCount: 0, pagination: { page: 1, limit: 20, total: 0 } });
  });

  it.each([
    ['limit=0', 'limit', 'must be at least 1'],
    ['limit=ten', 'limit', 'must be a whole number'],
    ['page=0', 'page', 'must be at least 1'],
    ['page=two', 'page', 'must be a whole number'],
    ['unreadOnly=maybe', 'unreadOnly', 'must be true or false'],
  ])('refuses the query %s with details', async (query, field, message) => {
    const response = await api.get(`/api/notifications?${query}`, { token: shop.agent.token });
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.details).toEqual([expect.objectContaining({ field, message })]);
  });
});

describe('PUT /api/notifications/read-all', () => {
  it("marks every unread notification of the caller read, and only the caller's", async () => {
    const agent = await buildAgent(server.db);
    const other = await buildAgent(server.db);
    await buildNotifications(agent.id, [{}, { isRead: true }, {}]);
    await buildNotifications(other.id, [{}]);

    const response = await api.put('/api/notifications/read-all', { token: agent.token });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { updated: 2 } });
    expect((await storedNotifications(agent.id)).every((row) => row.isRead)).toBe(true);
    expect((await storedNotifications(other.id)).map((row) => row.isRead)).toEqual([false]);
  });

  it('reports nothing updated when everything is already read', async () => {
    const agent = await buildAgent(server.db);
    await buildNotifications(agent.id, [{ isRead: true }]);
    const response = await api.put('/api/notifications/read-all', { token: agent.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { updated: 0 } });
  });
});

describe('PUT /api/notifications/:id/read', () => {
  it('marks one notification read and returns it', async () => {
    const agent = await buildAgent(server.db);
    const [target, untouched] = await buildNotifications(agent.id, [{}, {}]);

    const response = await api.put(`/api/notifications/${target!.id}/read`, { token: agent.token });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { ...presented(target!), isRead: true } });
    expect((await storedNotification(target!.id))!.isRead).toBe(true);
    expect((await storedNotification(untouched!.id))!.isRead).toBe(false);
  });

  it('answers the same for a notification already read', async () => {
    const agent = await buildAgent(server.db);
    const [read] = await buildNotifications(agent.id, [{ isRead: true }]);
    const response = await api.put(`/api/notifications/${read!.id}/read`, { token: agent.token });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(presented(read!));
  });

  it('answers 404 naming an unknown id', async () => {
    const id = crypto.randomUUID();
    const response = await api.put(`/api/notifications/${id}/read`, { token: shop.agent.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: `Notification with id "${id}" not found` });
  });

  it('answers 400 for an id that is not a UUID', async () => {
    const response = await api.put('/api/notifications/latest/read', { token: shop.agent.token });
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([{ field: 'id', message: 'must be a valid UUID', received: 'latest' }]);
  });
});

describe('notifications: security', () => {
  let ownerRows: NotificationRow[];
  let expired: string;
  let deletedUserToken: string;

  beforeAll(async () => {
    ownerRows = await buildNotifications(shop.agent.id, [{}, {}]);
    expired = await expiredToken(shop.agent);
    const doomed = await buildAgent(server.db);
    await buildNotifications(doomed.id, [{}]);
    deletedUserToken = doomed.token;
    await server.db.delete(users).where(eq(users.id, doomed.id));
  });

  const routes = [
    { name: 'GET /api/notifications', send: (token?: string) => api.get('/api/notifications', { token }) },
    { name: 'PUT /api/notifications/read-all', send: (token?: string) => api.put('/api/notifications/read-all', { token }) },
    { name: 'PUT /api/notifications/:id/read', send: (token?: string) => api.put(`/api/notifications/${ownerRows[0]!.id}/read`, { token }) },
  ];

  async function expectOwnerUnread() {
    expect((await storedNotifications(shop.agent.id)).map((row) => row.isRead)).toEqual([false, false]);
  }

  describe.each(routes)('$name', ({ send }) => {
    it.each([
      ['no token', () => undefined, 'Missing or malformed Authorization header'],
      ['a malformed token', () => 'not-a-jwt', 'Invalid token'],
      ['an expired token', () => expired, 'Token has expired'],
      ["a deleted user's token", () => deletedUserToken, 'User no longer exists'],
    ])('refuses %s, changing nothing', async (_case, token, error) => {
      const response = await send(token());
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error });
      await expectOwnerUnread();
    });
  });

  it("does not show another user's notifications, to an agent or an administrator", async () => {
    for (const reader of [shop.otherAgent, shop.admin]) {
      const response = await api.get('/api/notifications', { token: reader.token });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([]);
      expect(response.body.unreadCount).toBe(0);
    }
  });

  it("answers 403 when an agent marks another agent's notification read, changing nothing", async () => {
    const response = await api.put(`/api/notifications/${ownerRows[0]!.id}/read`, { token: shop.otherAgent.token });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Not authorized' });
    await expectOwnerUnread();
  });

  it("answers 403 when an administrator marks an agent's notification read: an inbox is personal", async () => {
    const response = await api.put(`/api/notifications/${ownerRows[1]!.id}/read`, { token: shop.admin.token });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Not authorized' });
    await expectOwnerUnread();
  });

  it("leaves other users' notifications unread when an administrator marks all read", async () => {
    // Its own administrator, whose inbox this test fills: the shared one's stays empty.
    const administrator = await buildAdmin(server.db);
    const [own] = await buildNotifications(administrator.id, [{}]);
    const response = await api.put('/api/notifications/read-all', { token: administrator.token });
    expect(response.body.data).toEqual({ updated: 1 });
    expect((await storedNotification(own!.id))!.isRead).toBe(true);
    await expectOwnerUnread();
  });
});
