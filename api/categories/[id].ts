import { deleteCategory, getCategory, updateCategory } from '../../lib/categories/handlers.js';
import { CategoryUpdateBody } from '../../lib/categories/schema.js';
import { IdParams } from '../../lib/http/common-schemas.js';
import { categoryTag } from '../../lib/http/edge-cache.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint('public', { params: IdParams }, getCategory, { edgeCache: { tags: ({ params }) => [categoryTag(params.id)] } }),
  PATCH: endpoint('admin', { params: IdParams, body: CategoryUpdateBody }, updateCategory),
  DELETE: endpoint('admin', { params: IdParams }, deleteCategory),
});
