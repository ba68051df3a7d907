import { and, eq, not } from 'drizzle-orm/sql/expressions/conditions';
import { desc } from 'drizzle-orm/sql/expressions/select';
import { count } from 'drizzle-orm/sql/functions/aggregate';
import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { notifications } from '../db/schema.js';
import { offsetOf } from '../http/common-schemas.js';
import type { NotificationListOptions } from './schema.js';

export type NotificationRow = typeof notifications.$inferSelect;

export interface NotificationPage {
  items: NotificationRow[];
  total: number;
  unreadCount: number;
}

/**
 * One page of a user's notifications, newest first, with the total and the unread count, in one
 * statement: the counts come from one scan of the user's rows, the page is joined to them
 * laterally, so an empty page still reports its counts.
 */
export async function listNotificationsPage(executor: Executor, userId: string, options: NotificationListOptions): Promise<NotificationPage> {
  const mine = eq(notifications.userId, userId);
  const unread = not(notifications.isRead);
  const counts = executor
    .select({
      total: (options.unreadOnly ? sql<number>`(count(*) filter (where ${unread}))::int` : sql<number>`count(*)::int`).as('total'),
      unreadCount: sql<number>`(count(*) filter (where ${unread}))::int`.as('unreadCount'),
    })
    .from(notifications)
    .where(mine)
    .as('counts');
  const page = executor
    .select()
    .from(notifications)
    .where(options.unreadOnly ? and(mine, unread) : mine)
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(options.limit)
    .offset(offsetOf(options))
    .as('page');
  const rows = await executor
    .select({
      total: counts.total,
      unreadCount: counts.unreadCount,
      item: {
        id: page.id,
        userId: page.userId,
        title: page.title,
        body: page.body,
        type: page.type,
        data: page.data,
        isRead: page.isRead,
        createdAt: page.createdAt,
      },
    })
    .from(counts)
    .leftJoinLateral(page, sql`true`)
    .orderBy(desc(page.createdAt), desc(page.id));
  const first = rows[0];
  return {
    items: rows.flatMap((row) => (row.item ? [row.item] : [])),
    total: first?.total ?? 0,
    unreadCount: first?.unreadCount ?? 0,
  };
}

/** Marks every unread notification of the user read; returns how many changed, counted in SQL. */
export async function markAllNotificationsRead(executor: Executor, userId: string): Promise<number> {
  const updated = executor
    .$with('updated')
    .as(
      executor
        .update(notifications)
        .set({ isRead: true })
        .where(and(eq(notifications.userId, userId), not(notifications.isRead)))
        .returning({ id: notifications.id }),
    );
  const [row] = await executor.with(updated).select({ updated: count() }).from(updated);
  return row?.updated ?? 0;
}

/** Marks one notification read when it belongs to the user; undefined when no such row is theirs. */
export async function markNotificationRead(executor: Executor, id: string, userId: string): Promise<NotificationRow | undefined> {
  const [row] = await executor
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning();
  return row;
}

export async function findNotificationOwner(executor: Executor, id: string): Promise<string | undefined> {
  const [row] = await executor.select({ userId: notifications.userId }).from(notifications).where(eq(notifications.id, id)).limit(1);
  return row?.userId;
}
