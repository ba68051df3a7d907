import { endpoint, route } from '../../lib/http/route.js';
import { postingHealth } from '../../lib/syndication/health.js';

export default route({
  GET: endpoint('admin', {}, postingHealth),
});
