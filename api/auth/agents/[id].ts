import { removeAgent } from '../../../lib/auth/agent-handlers.js';
import { IdParams } from '../../../lib/http/common-schemas.js';
import { endpoint, route } from '../../../lib/service-route.js';

export default route({
  DELETE: endpoint('admin', { params: IdParams }, removeAgent),
});
