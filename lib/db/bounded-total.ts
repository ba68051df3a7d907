import { sql, type SQLWrapper } from 'drizzle-orm/sql/sql';
import type { Executor } from './client.js';
import { queryRows } from './query-rows.js';

/** How many rows matched, and whether that is the exact number (it is not past EXACT_TOTAL_LIMIT). */
export interface MatchedTotal {
  total: number;
  exact: boolean;
}

/**
 * The most matches a list counts one by one. Past it, counting would read every match (hundreds of
 * thousands for a broad text search) for a figure no shopper reads exactly, as search engines say.
 */
export const EXACT_TOTAL_LIMIT = 10_000;

/**
 * A total as every list states it: exact below EXACT_TOTAL_LIMIT, and from there that limit,
 * flagged as not exact (as hosted search engines answer "10,000+"), never an estimate that can be
 * wrong by a fifth.
 */
export function cappedTotal(count: number): MatchedTotal {
  return count >= EXACT_TOTAL_LIMIT ? { total: EXACT_TOTAL_LIMIT, exact: false } : { total: count, exact: true };
}

/**
 * The rows `matching` (a select of the matching rows) returns, counted one by one up to `limit`
 * (EXACT_TOTAL_LIMIT unless each row costs more to count): the cost is bounded whatever the
 * filter. From `limit` on, the total is `limit`, flagged as not exact.
 */
export async function boundedTotal(executor: Executor, matching: SQLWrapper, limit = EXACT_TOTAL_LIMIT): Promise<MatchedTotal> {
  const rows = await queryRows<{ total: number }>(executor, sql`select count(*)::int as total from (${matching} limit ${sql.raw(String(limit))}) as matching`);
  const total = Number(rows[0]?.total ?? 0);
  return total >= limit ? { total: limit, exact: false } : { total, exact: true };
}
