import { getServiceInfo } from '../lib/docs/service-info.js';
import { endpoint, route } from '../lib/service-route.js';

export default route({
  GET: endpoint('public', {}, getServiceInfo),
});
