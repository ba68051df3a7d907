import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';
import { postingHealth } from '../../lib/syndication/health.js';
import { PostingHealthView } from '../../lib/syndication/view.js';

export default route({
  GET: endpoint({
    summary: 'Whether the channel is still posting: the posting log\'s states and latest events',
    access: 'admin',
    answer: answers.data(PostingHealthView),
    handle: postingHealth,
    description:
      'From the posting log: `pending` (waiting or being posted), `failedRetrying` (failed, to be tried again by the sweeper), `failedForGood24h` (failed in the last 24 hours and not to be tried again), `succeeded24h`, `oldestPendingSeconds` (null when nothing waits), ' +
      '`lastSuccessAt`, `lastFailureAt`, and `lastRateLimitedAt` with `lastRetryAfterSeconds`, the last attempt the Bot API refused for flood control (429) and the wait it asked for. Times are when the attempt started; null when there was none.',
  }),
});
