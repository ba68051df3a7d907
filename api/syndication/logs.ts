import { endpoint, route } from '../../lib/service-route.js';
import { listSyndicationLogs } from '../../lib/syndication/log-handlers.js';
import { LogsQuery } from '../../lib/syndication/schema.js';

export default route({
  GET: endpoint('token', { query: LogsQuery }, listSyndicationLogs),
});
