import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { messengerInfo } from '../../../lib/syndication/messenger-handlers.js';
import { MessengerInfoView } from '../../../lib/syndication/view.js';

export default route({
  GET: endpoint({
    summary: 'The bot and its channel',
    access: 'token',
    answer: answers.data(MessengerInfoView),
    handle: messengerInfo,
    errors: ['NOT_CONFIGURED', 'UPSTREAM_FAILED'],
  }),
});
