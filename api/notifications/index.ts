import * as v from 'valibot';
import { answers } from '../../lib/http/success-answer.js';
import { listNotifications } from '../../lib/notifications/handlers.js';
import { NotificationListQuery } from '../../lib/notifications/schema.js';
import { NotificationPaging, NotificationView } from '../../lib/notifications/view.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'The caller\'s notifications',
    access: 'token',
    schemas: { query: NotificationListQuery },
    answer: answers.data(v.array(NotificationView), NotificationPaging),
    handle: listNotifications,
    description: 'The envelope also carries `unreadCount`.',
  }),
});
