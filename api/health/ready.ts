import { readiness } from '../../lib/health/handlers.js';
import { endpoint, route } from '../../lib/http/route.js';

export default route({
  GET: endpoint('public', {}, readiness),
});
