import { ApiError } from '../lib/http/api-error.js';
import { answers } from '../lib/http/success-answer.js';
import { endpoint, route } from '../lib/service-route.js';

/**
 * The function every path nothing else serves is routed to, so it gets the envelope too. OPTIONS as
 * well: a path that serves nothing has no CORS preflight to answer.
 */
const notFound = endpoint({
  summary: 'Any path no function serves',
  access: 'public',
  answer: answers.none,
  handle: async () => {
    throw ApiError.notFound('Route not found');
  },
});

export default route({ GET: notFound, POST: notFound, PUT: notFound, PATCH: notFound, DELETE: notFound, OPTIONS: notFound });
