import { getCommissionSummary } from '../../lib/commissions/handlers.js';
import { CommissionSummaryView } from '../../lib/commissions/view.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'Commission totals: average percent, estimated, collected and pending revenue',
    access: 'admin',
    answer: answers.data(CommissionSummaryView),
    handle: getCommissionSummary,
  }),
});
