import { getReferencePage } from '../../lib/docs/handlers.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'The API reference page',
    access: 'public',
    answer: answers.html,
    handle: getReferencePage,
  }),
});
