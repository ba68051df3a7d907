import type { Role } from '../db/schema.js';
import { config } from '../config.js';
import { ApiError } from './api-error.js';
import type { IncomingRequest } from './incoming-request.js';
import { secretMatches } from './shared-secret.js';

/** Who may call an endpoint: anyone, any signed-in user, administrators only, or the platform's scheduler (bearer `CRON_SECRET`). */
export type Access = 'public' | 'token' | 'admin' | 'cron';

/** The caller of an authenticated request (`req.user` in the spec). */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
  phone: string;
  role: Role;
}

/**
 * What the route wrapper asks of the accounts domain (lib/auth), which it does not import: who a
 * bearer token signs in, and the work an instance does once before its first answer.
 */
export interface CallerChecks {
  /** The signed-in caller; with `role`, a caller of another role is refused. */
  authenticate: (authorization: string | undefined, role?: Role) => Promise<AuthUser>;
  /** Runs before every answer; does its work once per instance (a cold start). */
  beforeFirstAnswer: () => Promise<void>;
}

/**
 * The scheduler's call (Vercel Cron sends `Authorization: Bearer <CRON_SECRET>`): any other caller
 * is refused, and without a secret configured nobody is let in.
 */
function assertScheduler(request: IncomingRequest): void {
  const { cronSecret, production } = config();
  if (!cronSecret) {
    if (production) throw new ApiError(503, 'Service unavailable: CRON_SECRET is not set');
    throw ApiError.unauthorized('Only the scheduler may call this: set CRON_SECRET');
  }
  const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (!secretMatches(given, cronSecret)) throw ApiError.unauthorized('Only the scheduler may call this');
}

/** The access step: the signed-in caller, or null where none is needed; throws when the caller may not call. */
export async function callerOf(access: Access, request: IncomingRequest, checks: CallerChecks): Promise<AuthUser | null> {
  if (access === 'public') return null;
  if (access === 'cron') {
    assertScheduler(request);
    return null;
  }
  return checks.authenticate(request.headers.authorization, access === 'admin' ? 'SUPER_ADMIN' : undefined);
}
