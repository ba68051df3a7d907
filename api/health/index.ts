import { liveness } from '../../lib/health/liveness.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint('public', {}, liveness),
});
