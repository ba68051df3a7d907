import { seedCategories } from '../../lib/categories/handlers.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint('admin', {}, seedCategories),
});
