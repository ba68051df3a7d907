import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { setupWebhook } from '../../../lib/syndication/messenger-handlers.js';
import { WebhookView } from '../../../lib/syndication/view.js';

export default route({
  POST: endpoint({
    summary: 'Point the bot\'s webhook at this service',
    access: 'admin',
    answer: answers.data(WebhookView),
    handle: setupWebhook,
    errors: ['NOT_CONFIGURED', 'UPSTREAM_FAILED'],
  }),
});
