import { endpoint, route } from '../../../lib/http/route.js';
import { messengerInfo } from '../../../lib/syndication/messenger-handlers.js';

export default route({
  GET: endpoint('token', {}, messengerInfo),
});
