import { runSweep } from '../../lib/cron/sweep.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint('cron', {}, runSweep),
});
