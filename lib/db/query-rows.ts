import type { SQL } from 'drizzle-orm/sql/sql';
import type { Executor } from './client.js';

/** The rows of a raw statement: every driver (node-postgres, Neon, PGlite) answers it with `{ rows }`. */
export async function queryRows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
