import { liveness } from '../../lib/health/liveness.js';
import { endpoint, route } from '../../lib/http/route.js';

export default route({
  GET: endpoint('public', {}, liveness),
});
