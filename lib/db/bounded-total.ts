import { sql, type SQLWrapper } from 'drizzle-orm/sql/sql';
import type { Executor } from './client.js';
import { queryRows } from './query-rows.js';

/** How many rows matched, and whether that is the exact number or an estimate (a broad search is not counted row by row). */
export interface MatchedTotal {
  total: number;
  exact: boolean;
}

/**
 * The most matches a list counts one by one. Past it, counting would read every match (hundreds of
 * thousands for a broad text search) for a figure no shopper reads exactly, as search engines say.
 */
export const EXACT_TOTAL_LIMIT = 10_000;

interface PlanNode {
  Plan: { 'Plan Rows': number };
}

/** The planner's estimate of the rows of `statement`, from its statistics, without running it. */
export async function estimatedRows(executor: Executor, statement: SQLWrapper): Promise<number> {
  const rows = await queryRows<{ 'QUERY PLAN': PlanNode[] | string }>(executor, sql`explain (format json) ${statement}`);
  const plan = rows[0]!['QUERY PLAN'];
  const [node] = typeof plan === 'string' ? (JSON.parse(plan) as PlanNode[]) : plan;
  return Math.round(node!.Plan['Plan Rows']);
}

/**
 * The rows `matching` (a select of the matching rows) returns: counted exactly up to `limit`
 * (EXACT_TOTAL_LIMIT unless each row costs more to count), so the cost is bounded whatever the
 * filter; beyond it, the planner's estimate (never below the limit), flagged as not exact.
 */
export async function boundedTotal(executor: Executor, matching: SQLWrapper, limit = EXACT_TOTAL_LIMIT): Promise<MatchedTotal> {
  const rows = await queryRows<{ total: number }>(
    executor,
    sql`select count(*)::int as total from (${matching} limit ${sql.raw(String(limit + 1))}) as matching`,
  );
  const total = Number(rows[0]?.total ?? 0);
  if (total <= limit) return { total, exact: true };
  return { total: Math.max(await estimatedRows(executor, matching), limit + 1), exact: false };
}
