import type { NotificationRow } from './queries.js';
import type { NotificationView } from './view.js';

export function notificationPresenter(row: NotificationRow): NotificationView {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    type: row.type,
    data: row.data,
    isRead: row.isRead,
    createdAt: row.createdAt,
  };
}
