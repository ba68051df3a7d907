import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { webhookInfo } from '../../../lib/syndication/messenger-handlers.js';
import { WebhookView } from '../../../lib/syndication/view.js';

export default route({
  GET: endpoint({
    summary: 'The bot\'s current webhook',
    access: 'admin',
    answer: answers.data(WebhookView),
    handle: webhookInfo,
    errors: ['NOT_CONFIGURED', 'UPSTREAM_FAILED'],
  }),
});
