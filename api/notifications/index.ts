import { endpoint, route } from '../../lib/service-route.js';
import { listNotifications } from '../../lib/notifications/handlers.js';
import { NotificationListQuery } from '../../lib/notifications/schema.js';

export default route({
  GET: endpoint('token', { query: NotificationListQuery }, listNotifications),
});
