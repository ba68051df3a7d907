import type * as v from 'valibot';
import type { AuthUser } from '../http/access.js';
import { getDb } from '../db/client.js';
import { ApiError, notFoundError } from '../http/api-error.js';
import type { IdParams } from '../http/common-schemas.js';
import { ok, type DataReply } from '../http/reply.js';
import { notificationPresenter } from './presenter.js';
import { findNotificationOwner, listNotificationsPage, markAllNotificationsRead, markNotificationRead } from './queries.js';
import type { NotificationListOptions } from './schema.js';
import type { BesideOutputs } from '../http/success-answer.js';
import type { MarkedReadView, NotificationPaging, NotificationView } from './view.js';

interface Caller {
  user: AuthUser;
}

/** The caller's own notifications only; `pagination` carries page, limit and total, as the spec shows it. */
export async function listNotifications({ query }: { query: NotificationListOptions }, { user }: Caller): Promise<DataReply<NotificationView[], BesideOutputs<typeof NotificationPaging>>> {
  const db = await getDb();
  const { items, total, unreadCount } = await listNotificationsPage(db, user.id, query);
  return ok(items.map(notificationPresenter), {
    unreadCount,
    pagination: { page: query.page, limit: query.limit, total },
  });
}

export async function markAllRead(_input: unknown, { user }: Caller): Promise<DataReply<MarkedReadView>> {
  const db = await getDb();
  return ok({ updated: await markAllNotificationsRead(db, user.id) });
}

export async function markRead({ params }: { params: v.InferOutput<typeof IdParams> }, { user }: Caller): Promise<DataReply<NotificationView>> {
  const db = await getDb();
  const row = await markNotificationRead(db, params.id, user.id);
  if (row) return ok(notificationPresenter(row));
  // Someone else's notification is named as such (403) rather than hidden behind a 404.
  if (await findNotificationOwner(db, params.id)) throw ApiError.forbidden();
  throw notFoundError('Notification', params.id);
}
