import { deleteCategory, getCategory, updateCategory } from '../../lib/categories/handlers.js';
import { CategoryUpdateBody } from '../../lib/categories/schema.js';
import { CategoryView } from '../../lib/categories/view.js';
import { IdParams } from '../../lib/http/common-schemas.js';
import { DeletedView } from '../../lib/http/common-views.js';
import { categoryTag } from '../../lib/http/edge-cache.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'One category',
    access: 'public',
    schemas: { params: IdParams },
    answer: answers.data(CategoryView),
    handle: getCategory,
    edgeCache: { tags: ({ params }) => [categoryTag(params.id)] },
  }),
  PATCH: endpoint({
    summary: 'Update a category',
    access: 'admin',
    schemas: { params: IdParams, body: CategoryUpdateBody },
    answer: answers.data(CategoryView),
    handle: updateCategory,
    errors: ['ALREADY_EXISTS'],
  }),
  DELETE: endpoint({
    summary: 'Delete a category no listing in the shop uses',
    access: 'admin',
    schemas: { params: IdParams },
    answer: answers.data(DeletedView),
    handle: deleteCategory,
    errors: ['CONFLICT'],
    description: 'A category that a listing in the shop uses is 409, naming how many. Listings in the trash do not keep it: they lose their category (`categoryId` null, `removedCategory` its display name), and a restore of one is then 409.',
  }),
});
