import { endpoint, route } from '../../../lib/service-route.js';
import { editChannelMessage } from '../../../lib/syndication/handlers.js';
import { EditMessageBody, MessageIdParams } from '../../../lib/syndication/schema.js';

export default route({
  POST: endpoint('admin', { params: MessageIdParams, body: EditMessageBody }, editChannelMessage),
});
