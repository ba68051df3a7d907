import { IdParams } from '../../../lib/http/common-schemas.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { retrySyndication } from '../../../lib/syndication/handlers.js';

export default route({
  POST: endpoint('token', { params: IdParams }, retrySyndication, { idempotent: true }),
});
