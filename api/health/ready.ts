import { readiness } from '../../lib/health/readiness.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'Readiness, with a database check',
    access: 'public',
    answer: answers.health,
    handle: readiness,
  }),
});
