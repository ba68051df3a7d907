import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';
import { listSyndicationLogs } from '../../lib/syndication/log-handlers.js';
import { LogsQuery } from '../../lib/syndication/schema.js';
import { LogView } from '../../lib/syndication/view.js';

export default route({
  GET: endpoint({
    summary: 'Channel posting attempts (an agent sees their own)',
    access: 'token',
    schemas: { query: LogsQuery },
    answer: answers.pages(LogView),
    handle: listSyndicationLogs,
  }),
});
