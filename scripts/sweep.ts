import { closeDb } from '../lib/db/client.js';
import { log } from '../lib/log.js';
import { sweepChannelPosts } from '../lib/syndication/sweeper.js';

/** `npm run sweep`: one sweep (D33), as the scheduled function runs it. */
sweepChannelPosts()
  .then((channelPosts) => log.info('sweep done', { channelPosts }))
  .catch((error: unknown) => {
    log.error('sweep failed', { error });
    process.exitCode = 1;
  })
  .finally(() => closeDb());
