import { endpoint, route } from '../../lib/service-route.js';
import { publicMessengerBot } from '../../lib/syndication/messenger-handlers.js';

export default route({
  GET: endpoint('public', {}, publicMessengerBot, { edgeCache: { tags: () => ['messenger-bot'] } }),
});
