import { config } from '../config.js';
import type { Role } from '../db/schema.js';
import type { AuthUser, CallerChecks } from '../http/access.js';
import { log } from '../log.js';

let bootstrap: Promise<void> | undefined;

/**
 * Makes sure the configured first administrator exists, once per instance (cold start). A failure
 * is logged and retried on the next request rather than failing this one.
 */
async function ensureConfiguredAdminOnce(): Promise<void> {
  if (!config().admin) return;
  bootstrap ??= import('./bootstrap-admin.js')
    .then(({ ensureConfiguredAdmin }) => ensureConfiguredAdmin())
    .catch((error: unknown) => {
      bootstrap = undefined;
      log.error('could not ensure the configured administrator', { error });
    });
  await bootstrap;
}

/** Authentication is loaded only when a function's non-public method is called, keeping public reads light. */
async function authenticateCaller(authorization: string | undefined, role?: Role): Promise<AuthUser> {
  const { assertRole, authenticate } = await import('./authenticate.js');
  const user = await authenticate(authorization);
  if (role) assertRole(user, role);
  return user;
}

/** How the route wrapper knows the service's callers, and what a cold instance does before its first answer. */
export const callerChecks: CallerChecks = { authenticate: authenticateCaller, beforeFirstAnswer: ensureConfiguredAdminOnce };
