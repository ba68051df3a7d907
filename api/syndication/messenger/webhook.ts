import { endpoint, route } from '../../../lib/http/route.js';
import { webhookStub } from '../../../lib/syndication/messenger-handlers.js';

export default route({
  POST: endpoint('public', {}, webhookStub),
});
