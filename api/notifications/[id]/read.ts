import { IdParams } from '../../../lib/http/common-schemas.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { markRead } from '../../../lib/notifications/handlers.js';

export default route({
  PUT: endpoint('token', { params: IdParams }, markRead),
});
