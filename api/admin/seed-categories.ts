import { seedCategories } from '../../lib/categories/handlers.js';
import { endpoint, route } from '../../lib/http/route.js';

export default route({
  GET: endpoint('admin', {}, seedCategories),
});
