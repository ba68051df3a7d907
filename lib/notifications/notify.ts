import type { Executor } from '../db/client.js';
import { notifications } from '../db/schema.js';

/** The notification types of D16. */
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
