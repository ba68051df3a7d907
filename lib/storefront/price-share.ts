import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';
import type { PriceShares } from './order-spans.js';

/** The price column's statistics as the planner keeps them: its most common prices with their frequencies, and the bounds of its histogram of the rest. */
interface PriceStatistics {
  commonValues: number[] | null;
  commonFrequencies: number[] | null;
  bounds: number[] | null;
}

/** Where `price` lies among the histogram's bounds, counted in buckets from the first bound, each bucket read as evenly filled. */
function bucketsBelow(bounds: number[], price: number): number {
  if (price <= bounds[0]!) return 0;
  if (price >= bounds.at(-1)!) return bounds.length - 1;
  let bucket = 0;
  while (bounds[bucket + 1]! <= price) bucket += 1;
  return bucket + (price - bounds[bucket]!) / (bounds[bucket + 1]! - bounds[bucket]!);
}

/**
 * About what share of the listings are priced from `from` to `to`, by the planner's statistics
 * of the price column: its most common prices by their own frequency, the rest by the share of
 * its histogram the range spans.
 */
function sharesOf({ commonValues, commonFrequencies, bounds }: PriceStatistics): PriceShares {
  const common = (commonValues ?? []).map((value, index) => ({ value, frequency: commonFrequencies?.[index] ?? 0 }));
  const rest = 1 - common.reduce((sum, { frequency }) => sum + frequency, 0);
  const buckets = (bounds?.length ?? 0) - 1;
  return (from, to) => {
    if (to < from) return 0;
    const commonShare = common.reduce((sum, { value, frequency }) => (value >= from && value <= to ? sum + frequency : sum), 0);
    const spanned = buckets > 0 ? (bucketsBelow(bounds!, to) - bucketsBelow(bounds!, from)) / buckets : 0;
    return commonShare + rest * spanned;
  };
}

/**
 * The share of the listings priced within a stretch, by the planner's statistics of the price
 * column (sharesOf()); undefined before the column has statistics.
 */
export async function catalogueShares(executor: Executor): Promise<PriceShares | undefined> {
  const [statistics] = await queryRows<PriceStatistics>(
    executor,
    sql`select most_common_vals::text::float8[] as "commonValues", most_common_freqs::float8[] as "commonFrequencies", histogram_bounds::text::float8[] as bounds
      from pg_stats where schemaname = current_schema() and tablename = 'listings' and attname = 'price'`,
  );
  return statistics === undefined ? undefined : sharesOf(statistics);
}

/** The share of `prices` (a sample of a read's matches) that lie within a stretch. */
export function sampledShares(prices: number[]): PriceShares {
  return (from, to) => prices.filter((price) => price >= from && price <= to).length / Math.max(prices.length, 1);
}

/** The whole of a price range, from `min` to `max` (each open when not given), as a stretch a share is taken of. */
export function shareOfRange(shares: PriceShares, min: number | undefined, max: number | undefined): number {
  return shares(min ?? -Infinity, max ?? Infinity);
}
