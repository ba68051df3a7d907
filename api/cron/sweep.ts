import { runSweep } from '../../lib/cron/sweep.js';
import { SweepView } from '../../lib/cron/view.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'Run the sweeper (Vercel Cron)',
    access: 'cron',
    answer: answers.data(SweepView),
    handle: runSweep,
    description: '401 for any caller but the scheduler, 503 in production without CRON_SECRET. Posts channel entries left PENDING by an invocation that died and retries failed ones whose failure can heal (up to 5 attempts, about 1, 5, 15 and 60 minutes apart), removes expired idempotency keys, unattached direct uploads, audit entries past `AUDIT_RETENTION_DAYS`, listings in the trash past `TRASH_RETENTION_DAYS` (up to 1,000 per sweep) with their images, and the images of deleted listings whose files were left behind; answers how many of each.',
  }),
});
