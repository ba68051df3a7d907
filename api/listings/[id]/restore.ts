import { registerDomainListeners } from '../../../lib/domain-listeners.js';
import { IdParams } from '../../../lib/http/common-schemas.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { restoreListing } from '../../../lib/listings/trash.js';

registerDomainListeners();

export default route({
  POST: endpoint('token', { params: IdParams }, restoreListing),
});
