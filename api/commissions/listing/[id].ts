import { updateListingCommission } from '../../../lib/commissions/handlers.js';
import { CommissionUpdateBody } from '../../../lib/commissions/schema.js';
import { IdParams } from '../../../lib/http/common-schemas.js';
import { endpoint, route } from '../../../lib/service-route.js';

export default route({
  PATCH: endpoint('admin', { params: IdParams, body: CommissionUpdateBody }, updateListingCommission),
});
