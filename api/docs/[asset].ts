import { AssetParams, getReferenceAsset } from '../../lib/docs/handlers.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint('public', { params: AssetParams }, getReferenceAsset),
});
