import { createCategory, listCategories } from '../../lib/categories/handlers.js';
import { CategoryCreateBody } from '../../lib/categories/schema.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint('public', {}, listCategories, { edgeCache: { tags: () => ['categories', 'listings'] } }),
  POST: endpoint('admin', { body: CategoryCreateBody }, createCategory, { idempotent: true }),
});
