import { endpoint, route } from '../../lib/service-route.js';
import { postingHealth } from '../../lib/syndication/health.js';

export default route({
  GET: endpoint('admin', {}, postingHealth),
});
