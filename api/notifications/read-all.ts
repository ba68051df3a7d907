import { endpoint, route } from '../../lib/service-route.js';
import { markAllRead } from '../../lib/notifications/handlers.js';

export default route({
  PUT: endpoint('token', {}, markAllRead),
});
