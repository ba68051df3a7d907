import { config, missingSettings } from '../config.js';
import { getDb } from '../db/client.js';
import { explainMissingDatabase, missingDatabaseName } from '../db/missing-database.js';
import { pendingMigrationCount } from '../db/pending-migrations.js';
import { ApiError } from '../http/api-error.js';
import { raw, type HealthReply } from '../http/reply.js';

const READINESS_TIMEOUT_MS = 3000;

/** The command that applies the migrations this build carries. */
const MIGRATE_COMMAND = 'npm run db:migrate';

function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('database check timed out')), READINESS_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Why the database check failed: the database DATABASE_URL names is absent from its server, or the server is out of reach. */
function databaseProblem(error: unknown): string {
  const missing = missingDatabaseName(error);
  return missing === undefined ? 'The database is unreachable' : explainMissingDatabase(missing, 'DATABASE_URL');
}

/**
 * Readiness: every required setting is present, the database answers within a short time, and it
 * has applied every migration this build carries (a deployment whose database lags would answer
 * errors on every route that reads a newer table or column).
 */
export async function readiness(): Promise<HealthReply> {
  const missing = missingSettings(config());
  if (missing.length > 0) {
    throw new ApiError(
      503,
      'Service unavailable: required settings are missing',
      missing.map((item) => ({ field: item.setting, message: item.message })),
    );
  }
  let pending: number;
  try {
    pending = await withinTimeout(getDb().then(pendingMigrationCount));
  } catch (error) {
    throw new ApiError(503, 'Service unavailable', [{ field: 'database', message: databaseProblem(error) }]);
  }
  if (pending > 0) {
    const migrations = pending === 1 ? '1 migration is' : `${pending} migrations are`;
    throw new ApiError(503, 'Service unavailable: the database is not migrated', [
      { field: 'database', message: `${migrations} not applied: run ${MIGRATE_COMMAND}` },
    ]);
  }
  return raw({ status: 'ok', timestamp: new Date().toISOString(), checks: { database: 'ok' } });
}
