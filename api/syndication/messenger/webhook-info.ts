import { endpoint, route } from '../../../lib/http/route.js';
import { webhookInfo } from '../../../lib/syndication/messenger-handlers.js';

export default route({
  GET: endpoint('admin', {}, webhookInfo),
});
