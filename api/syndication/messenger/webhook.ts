import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { receiveWebhook } from '../../../lib/syndication/messenger-handlers.js';

export default route({
  POST: endpoint({
    summary: 'Inbound bot updates (acknowledged, not acted on)',
    access: 'public',
    answer: answers.acknowledgement,
    handle: receiveWebhook,
    errors: ['UNAUTHENTICATED'],
    description: 'Once a bot is configured, the Bot API\'s calls carry the webhook secret in `X-Telegram-Bot-Api-Secret-Token`, and any other caller is 401.',
  }),
});
