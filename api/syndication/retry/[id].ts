import { IdParams } from '../../../lib/http/common-schemas.js';
import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { retrySyndication } from '../../../lib/syndication/handlers.js';
import { MANUAL_POSTING } from '../../../lib/syndication/manual-posting-limits.js';
import { LogView } from '../../../lib/syndication/view.js';

export default route({
  POST: endpoint({
    summary: 'Retry a failed posting attempt',
    ...MANUAL_POSTING,
    schemas: { params: IdParams },
    answer: answers.data(LogView),
    handle: retrySyndication,
  }),
});
