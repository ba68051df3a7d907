import { seedCategories } from '../../lib/categories/handlers.js';
import { SeedView } from '../../lib/categories/view.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'Create the default categories that are missing',
    access: 'admin',
    answer: answers.data(SeedView),
    handle: seedCategories,
  }),
});
