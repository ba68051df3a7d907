import { endpoint, route } from '../../../lib/service-route.js';
import { triggerSyndication } from '../../../lib/syndication/handlers.js';
import { ListingIdParams } from '../../../lib/syndication/schema.js';

export default route({
  POST: endpoint('token', { params: ListingIdParams }, triggerSyndication, { idempotent: true }),
});
