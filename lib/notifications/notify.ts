import { eq } from 'drizzle-orm/sql/expressions/conditions';
import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { notifications, users, type Role } from '../db/schema.js';

/** The notification types: a listing created, updated or sold, and a failed channel post. */
export type NotificationType = 'LISTING_CREATED' | 'LISTING_UPDATED' | 'LISTING_SOLD' | 'SYNDICATION_FAILED';

export interface NewNotification {
  userId: string;
  type: NotificationType;
  title: string;
  body?: string;
  data?: Record<string, unknown>;
}

/** Stores notifications on the given executor, so a write and its notifications share a transaction. */
export async function notify(executor: Executor, items: NewNotification[]): Promise<void> {
  if (items.length === 0) return;
  await executor.insert(notifications).values(items);
}

/** Stores one notification for every user of a role, in a single insert from a select of those users. */
export async function notifyRole(executor: Executor, role: Role, item: Omit<NewNotification, 'userId'>): Promise<void> {
  // An insert from a select names every column of the table, in order.
  await executor.insert(notifications).select(
    executor
      .select({
        id: sql<string>`gen_random_uuid()`.as('id'),
        userId: users.id,
        title: sql<string>`${item.title}`.as('title'),
        body: sql<string | null>`${item.body ?? null}`.as('body'),
        type: sql<string>`${item.type}`.as('type'),
        data: (item.data === undefined ? sql`null::jsonb` : sql`${JSON.stringify(item.data)}::jsonb`).as('data'),
        isRead: sql<boolean>`false`.as('isRead'),
        createdAt: sql<Date>`now()`.as('createdAt'),
      })
      .from(users)
      .where(eq(users.role, role)),
  );
}
