import { listListingCommissions } from '../../lib/commissions/handlers.js';
import { CommissionListingsQuery } from '../../lib/commissions/schema.js';
import { CommissionListingView } from '../../lib/commissions/view.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'Listings with their commission amounts',
    access: 'admin',
    schemas: { query: CommissionListingsQuery },
    answer: answers.pages(CommissionListingView),
    handle: listListingCommissions,
  }),
});
