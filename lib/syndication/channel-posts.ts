import { and, eq, isNotNull } from 'drizzle-orm/sql/expressions/conditions';
import type { Executor } from '../db/client.js';
import { syndicationLogs } from '../db/schema.js';

/** The messages the service posted to one channel for a listing. */
export interface ChannelPost {
  channelInfo: string;
  messageIds: number[];
}

/**
 * The channel messages of a listing, per channel: every message of each post that went out, in
 * whole or in part (an album's items and its buttons message too). Read before the listing is deleted,
 * because its logs go with it.
 */
export async function channelPostsOfListing(executor: Executor, listingId: string): Promise<ChannelPost[]> {
  const rows = await executor
    .select({ channelInfo: syndicationLogs.channelInfo, messageId: syndicationLogs.messageId, postMessageIds: syndicationLogs.postMessageIds })
    .from(syndicationLogs)
    .where(and(eq(syndicationLogs.listingId, listingId), isNotNull(syndicationLogs.messageId)));
  const byChannel = new Map<string, Set<number>>();
  for (const row of rows) {
    const ids = byChannel.get(row.channelInfo) ?? new Set<number>();
    for (const id of row.postMessageIds ?? [row.messageId!]) ids.add(id);
    byChannel.set(row.channelInfo, ids);
  }
  return [...byChannel]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([channelInfo, ids]) => ({ channelInfo, messageIds: [...ids].sort((a, b) => a - b) }));
}
