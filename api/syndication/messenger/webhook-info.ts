import { endpoint, route } from '../../../lib/service-route.js';
import { webhookInfo } from '../../../lib/syndication/messenger-handlers.js';

export default route({
  GET: endpoint('admin', {}, webhookInfo),
});
