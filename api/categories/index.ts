import * as v from 'valibot';
import { createCategory, listCategories } from '../../lib/categories/handlers.js';
import { CategoryCreateBody } from '../../lib/categories/schema.js';
import { CategoryView } from '../../lib/categories/view.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'List categories with their listing counts',
    access: 'public',
    answer: answers.data(v.array(CategoryView)),
    handle: listCategories,
    edgeCache: { tags: () => ['categories', 'listings'] },
  }),
  POST: endpoint({
    summary: 'Create a category',
    access: 'admin',
    schemas: { body: CategoryCreateBody },
    answer: answers.data(CategoryView),
    handle: createCategory,
    successStatus: 201,
    errors: ['ALREADY_EXISTS'],
    idempotent: true,
  }),
});
