import { ok, type Reply } from '../http/reply.js';
import { sweepChannelPosts } from '../syndication/sweeper.js';

/** `GET /api/cron/sweep` (D33): what the scheduler runs. */
export async function runSweep(): Promise<Reply> {
  return ok({ channelPosts: await sweepChannelPosts() });
}
