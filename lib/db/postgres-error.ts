/** The fields of a PostgreSQL error that say what went wrong (node-postgres, Neon and PGlite alike). */
export interface PostgresError {
  code: string;
  message?: string;
  constraint?: string;
  detail?: string;
}

/** The PostgreSQL error behind a failure, looked for through the `cause` chain drizzle wraps it in. */
export function findPostgresError(error: unknown): PostgresError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    const candidate = current as { code?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return candidate as PostgresError;
    }
    current = candidate.cause;
  }
  return undefined;
}

/** Deadlock and serialization failure: the transaction lost a race and may simply run again. */
export const RETRYABLE_CODES: ReadonlySet<string> = new Set(['40P01', '40001']);
