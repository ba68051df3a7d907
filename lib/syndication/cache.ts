import { and, eq, gt } from 'drizzle-orm/sql/expressions/conditions';
import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { cacheEntries } from '../db/schema.js';

/** A cached value that has not expired yet. */
export async function readCached<T>(executor: Executor, key: string): Promise<T | undefined> {
  const [row] = await executor
    .select({ value: cacheEntries.value })
    .from(cacheEntries)
    .where(and(eq(cacheEntries.key, key), gt(cacheEntries.expiresAt, sql`now()`)))
    .limit(1);
  return row?.value as T | undefined;
}

export async function writeCached(executor: Executor, key: string, value: unknown, ttlSeconds: number): Promise<void> {
  const expiresAt = sql`now() + ${ttlSeconds}::int * interval '1 second'`;
  await executor
    .insert(cacheEntries)
    .values({ key, value, expiresAt })
    .onConflictDoUpdate({ target: cacheEntries.key, set: { value, expiresAt } });
}
