import { endpoint, route } from '../../../lib/service-route.js';
import { deleteChannelMessage } from '../../../lib/syndication/handlers.js';
import { MessageIdParams } from '../../../lib/syndication/schema.js';

export default route({
  POST: endpoint('admin', { params: MessageIdParams }, deleteChannelMessage),
});
