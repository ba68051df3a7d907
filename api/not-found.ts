import { ApiError } from '../lib/http/api-error.js';
import { endpoint, route } from '../lib/service-route.js';

/** The fallback `vercel.json` rewrites unknown `/api/*` paths to, so they get the envelope too. */
const notFound = endpoint('public', {}, async () => {
  throw ApiError.notFound('Route not found');
});

export default route({ GET: notFound, POST: notFound, PUT: notFound, PATCH: notFound, DELETE: notFound });
