import { IdParams } from '../../../lib/http/common-schemas.js';
import { answers } from '../../../lib/http/success-answer.js';
import { markRead } from '../../../lib/notifications/handlers.js';
import { NotificationView } from '../../../lib/notifications/view.js';
import { endpoint, route } from '../../../lib/service-route.js';

export default route({
  PUT: endpoint({
    summary: 'Mark one notification read',
    access: 'token',
    schemas: { params: IdParams },
    answer: answers.data(NotificationView),
    handle: markRead,
  }),
});
