import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';
import { publicMessengerBot } from '../../lib/syndication/messenger-handlers.js';
import { PublicBotView } from '../../lib/syndication/view.js';

export default route({
  GET: endpoint({
    summary: 'The bot and channel, as the storefront shows them',
    access: 'public',
    answer: answers.data(PublicBotView),
    handle: publicMessengerBot,
    errors: ['NOT_FOUND', 'UPSTREAM_FAILED'],
    edgeCache: { tags: () => ['messenger-bot'] },
  }),
});
