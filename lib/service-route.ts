import { callerChecks } from './auth/caller-checks.js';
import { routeWith } from './http/route.js';

/**
 * The route wrapper every `api/` function uses: lib/http's pipeline, with callers checked and the
 * configured administrator ensured by the accounts domain (lib/auth), which lib/http does not import.
 */
export const route = routeWith(callerChecks);

export { endpoint } from './http/endpoint.js';
