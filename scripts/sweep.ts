import '../lib/cli/project-env.js';
import { parseArgs } from 'node:util';
import { reportFailure } from '../lib/cli/failure.js';
import { closeDb } from '../lib/db/client.js';
import { log } from '../lib/log.js';
import { sweep } from '../lib/cron/sweep.js';
import { STALE_PENDING_SECONDS } from '../lib/syndication/sweeper.js';

/**
 * `npm run sweep [-- --pending-older-than SECONDS]`: one sweep, as the scheduled function
 * runs it. A server that was stopped mid-post can be caught up at once with a shorter age.
 */
const { values } = parseArgs({ options: { 'pending-older-than': { type: 'string', default: String(STALE_PENDING_SECONDS) } } });
const pendingOlderThanSeconds = Number(values['pending-older-than']);
if (!Number.isInteger(pendingOlderThanSeconds) || pendingOlderThanSeconds < 0) {
  log.error('--pending-older-than takes a whole number of seconds');
  process.exit(2);
}

sweep({ pendingOlderThanSeconds })
  .then((report) => log.info('sweep done', { ...report }))
  .catch(reportFailure)
  .finally(() => closeDb());
