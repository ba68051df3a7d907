import { endpoint, route } from '../../../lib/service-route.js';
import { receiveWebhook } from '../../../lib/syndication/messenger-handlers.js';

export default route({
  POST: endpoint('public', {}, receiveWebhook),
});
