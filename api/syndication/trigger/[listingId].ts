import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { triggerSyndication } from '../../../lib/syndication/handlers.js';
import { MANUAL_POSTING } from '../../../lib/syndication/manual-posting-limits.js';
import { ListingIdParams } from '../../../lib/syndication/schema.js';
import { TriggeredView } from '../../../lib/syndication/view.js';

export default route({
  POST: endpoint({
    summary: 'Post a listing to the channel now',
    ...MANUAL_POSTING,
    schemas: { params: ListingIdParams },
    answer: answers.data(TriggeredView),
    handle: triggerSyndication,
  }),
});
