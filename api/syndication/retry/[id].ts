import { IdParams } from '../../../lib/http/common-schemas.js';
import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { retrySyndication } from '../../../lib/syndication/handlers.js';
import { throttlePosting } from '../../../lib/syndication/manual-posting-limits.js';
import { LogView } from '../../../lib/syndication/view.js';

export default route({
  POST: endpoint({
    summary: 'Retry a failed posting attempt',
    access: 'token',
    schemas: { params: IdParams },
    answer: answers.data(LogView),
    handle: retrySyndication,
    errors: ['CONFLICT', 'NOT_CONFIGURED', 'UPSTREAM_FAILED'],
    rateLimit: { inHandler: [throttlePosting] },
    idempotent: true,
  }),
});
