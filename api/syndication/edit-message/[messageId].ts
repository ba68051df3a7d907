import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { editChannelMessage } from '../../../lib/syndication/handlers.js';
import { EditMessageBody, MessageIdParams } from '../../../lib/syndication/schema.js';
import { MessageEditedView } from '../../../lib/syndication/view.js';

export default route({
  POST: endpoint({
    summary: 'Edit a channel message\'s caption',
    access: 'admin',
    schemas: { params: MessageIdParams, body: EditMessageBody },
    answer: answers.data(MessageEditedView),
    handle: editChannelMessage,
    errors: ['NOT_CONFIGURED', 'UPSTREAM_FAILED'],
  }),
});
