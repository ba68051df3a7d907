import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { deleteChannelMessage } from '../../../lib/syndication/handlers.js';
import { MessageIdParams } from '../../../lib/syndication/schema.js';
import { MessageDeletedView } from '../../../lib/syndication/view.js';

export default route({
  POST: endpoint({
    summary: 'Delete a channel message',
    access: 'admin',
    schemas: { params: MessageIdParams },
    answer: answers.data(MessageDeletedView),
    handle: deleteChannelMessage,
    errors: ['NOT_CONFIGURED', 'UPSTREAM_FAILED'],
  }),
});
