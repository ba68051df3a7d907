import { sql } from 'drizzle-orm';
import { getDb } from '../db/client.js';
import { ApiError } from '../http/api-error.js';
import { raw, type Reply } from '../http/reply.js';

/** Liveness: the function answers; no dependency is touched. */
export async function liveness(): Promise<Reply> {
  return raw({ status: 'ok', timestamp: new Date().toISOString() });
}

const READINESS_TIMEOUT_MS = 3000;

/** Readiness: the database answers a query within a short time. */
export async function readiness(): Promise<Reply> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const db = await getDb();
    await Promise.race([
      db.execute(sql`select 1`),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('database check timed out')), READINESS_TIMEOUT_MS);
      }),
    ]);
  } catch {
    throw new ApiError(503, 'Service unavailable', [{ field: 'database', message: 'The database is unreachable' }]);
  } finally {
    clearTimeout(timer);
  }
  return raw({ status: 'ok', timestamp: new Date().toISOString(), checks: { database: 'ok' } });
}
