import { getCommissionSummary } from '../../lib/commissions/handlers.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint('admin', {}, getCommissionSummary),
});
