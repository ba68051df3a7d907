import { readiness } from '../../lib/health/readiness.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint('public', {}, readiness),
});
