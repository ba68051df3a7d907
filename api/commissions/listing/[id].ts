import { updateListingCommission } from '../../../lib/commissions/handlers.js';
import { CommissionUpdateBody } from '../../../lib/commissions/schema.js';
import { CommissionListingView } from '../../../lib/commissions/view.js';
import { IdParams } from '../../../lib/http/common-schemas.js';
import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';

export default route({
  PATCH: endpoint({
    summary: 'Set or clear a listing\'s commission percent (0-100, null clears)',
    access: 'admin',
    schemas: { params: IdParams, body: CommissionUpdateBody },
    answer: answers.data(CommissionListingView),
    handle: updateListingCommission,
  }),
});
