import { endpoint, route } from '../../../lib/service-route.js';
import { setupWebhook } from '../../../lib/syndication/messenger-handlers.js';

export default route({
  POST: endpoint('admin', {}, setupWebhook),
});
