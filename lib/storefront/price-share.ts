import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';

/**
 * About what share of the listings are priced within a range, from the planner's statistics of
 * the price column: its most common prices by their own frequency, the rest by the share of its
 * histogram's bounds inside the range. Undefined before the column has statistics.
 */
export async function priceShare(executor: Executor, priceMin: number | undefined, priceMax: number | undefined): Promise<number | undefined> {
  const min = priceMin ?? null;
  const max = priceMax ?? null;
  const within = (value: string) => sql`(${min}::numeric is null or ${sql.raw(value)} >= ${min}::numeric) and (${max}::numeric is null or ${sql.raw(value)} <= ${max}::numeric)`;
  const [row] = await queryRows<{ share: number | null }>(
    executor,
    sql`select coalesce((select sum(common.frequency) from unnest(stats.common_values, stats.common_frequencies) as common (value, frequency) where ${within('common.value')}), 0)
        + (1 - coalesce((select sum(frequency) from unnest(stats.common_frequencies) as frequency), 0))
        * coalesce((select count(*) from unnest(stats.bounds) as bound where ${within('bound')})::float8 / nullif(cardinality(stats.bounds), 0), 0) as share
      from (select most_common_vals::text::numeric[] as common_values, most_common_freqs as common_frequencies, histogram_bounds::text::numeric[] as bounds
        from pg_stats where schemaname = current_schema() and tablename = 'listings' and attname = 'price') as stats`,
  );
  return row?.share ?? undefined;
}
