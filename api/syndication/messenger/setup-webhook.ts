import { endpoint, route } from '../../../lib/http/route.js';
import { setupWebhook } from '../../../lib/syndication/messenger-handlers.js';

export default route({
  POST: endpoint('admin', {}, setupWebhook),
});
