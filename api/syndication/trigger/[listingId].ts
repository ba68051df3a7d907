import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { triggerSyndication } from '../../../lib/syndication/handlers.js';
import { throttlePosting } from '../../../lib/syndication/manual-posting-limits.js';
import { ListingIdParams } from '../../../lib/syndication/schema.js';
import { TriggeredView } from '../../../lib/syndication/view.js';

export default route({
  POST: endpoint({
    summary: 'Post a listing to the channel now',
    access: 'token',
    schemas: { params: ListingIdParams },
    answer: answers.data(TriggeredView),
    handle: triggerSyndication,
    errors: ['CONFLICT', 'NOT_CONFIGURED', 'UPSTREAM_FAILED'],
    rateLimit: { inHandler: [throttlePosting] },
    idempotent: true,
  }),
});
