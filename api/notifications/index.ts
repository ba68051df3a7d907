import { endpoint, route } from '../../lib/http/route.js';
import { listNotifications } from '../../lib/notifications/handlers.js';
import { NotificationListQuery } from '../../lib/notifications/schema.js';

export default route({
  GET: endpoint('token', { query: NotificationListQuery }, listNotifications),
});
