import { endpoint, route } from '../../../lib/service-route.js';
import { messengerInfo } from '../../../lib/syndication/messenger-handlers.js';

export default route({
  GET: endpoint('token', {}, messengerInfo),
});
