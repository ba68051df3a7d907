import { and, eq, isNotNull } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { syndicationLogs } from '../db/schema.js';

/** A message the service posted to a channel for a listing. */
export interface ChannelPost {
  messageId: number;
  channelInfo: string;
}

/**
 * The channel messages of a listing that were posted successfully. Read before the listing is
 * deleted, because its logs go with it.
 */
export async function channelPostsOfListing(executor: Executor, listingId: string): Promise<ChannelPost[]> {
  const rows = await executor
    .selectDistinct({ messageId: syndicationLogs.messageId, channelInfo: syndicationLogs.channelInfo })
    .from(syndicationLogs)
    .where(and(eq(syndicationLogs.listingId, listingId), eq(syndicationLogs.status, 'SUCCESS'), isNotNull(syndicationLogs.messageId)));
  return rows.map((row) => ({ messageId: row.messageId!, channelInfo: row.channelInfo }));
}
