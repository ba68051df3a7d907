import { sql } from 'drizzle-orm/sql/sql';
import { config, missingSettings } from '../config.js';
import { getDb } from '../db/client.js';
import { ApiError } from '../http/api-error.js';
import { raw, type Reply } from '../http/reply.js';

const READINESS_TIMEOUT_MS = 3000;

/** Readiness: every required setting is present, and the database answers a query within a short time. */
export async function readiness(): Promise<Reply> {
  const missing = missingSettings(config());
  if (missing.length > 0) {
    throw new ApiError(
      503,
      'Service unavailable: required settings are missing',
      missing.map((item) => ({ field: item.setting, message: item.message })),
    );
  }
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
