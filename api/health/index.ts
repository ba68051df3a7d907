import { liveness } from '../../lib/health/liveness.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'Liveness',
    access: 'public',
    answer: answers.health,
    handle: liveness,
  }),
});
