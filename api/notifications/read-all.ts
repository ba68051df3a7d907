import { answers } from '../../lib/http/success-answer.js';
import { markAllRead } from '../../lib/notifications/handlers.js';
import { MarkedReadView } from '../../lib/notifications/view.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  PUT: endpoint({
    summary: 'Mark all of the caller\'s notifications read',
    access: 'token',
    answer: answers.data(MarkedReadView),
    handle: markAllRead,
  }),
});
