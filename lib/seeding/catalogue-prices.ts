import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';

/** The shares of the storefront's prices a shopper's ceilings are taken at: the 10th to the 90th percentile. */
export const CEILING_PERCENTILES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] as const;

export interface BrowseCeilings {
  /** The percentiles of every available listing's price, in birr, 10th first. */
  overall: number[];
  /** The same per category, by its display name. */
  byCategory: Record<string, number[]>;
}

const toCents = (price: number) => Math.round(price * 100) / 100;

/**
 * The price ceilings a browsing shopper sets, read from the catalogue itself: the 10th to the 90th
 * percentile of the available listings' prices, over all of them and per category, so a browse
 * benchmark's ceilings fall where the catalogue's prices do.
 */
export async function catalogueBrowseCeilings(db: Executor): Promise<BrowseCeilings> {
  const shares = sql.raw(`array[${CEILING_PERCENTILES.join(', ')}]::float8[]`);
  const rows = await queryRows<{ category: string | null; ceilings: number[] | string }>(
    db,
    sql`select c."displayName" as category, percentile_cont(${shares}) within group (order by l.price::float8) as ceilings
      from listings l join categories c on c.id = l."categoryId"
      where l.status = 'AVAILABLE' and l."deletedAt" is null
      group by grouping sets ((c."displayName"), ())
      order by c."displayName" nulls first`,
  );
  const ceilings: BrowseCeilings = { overall: [], byCategory: {} };
  for (const row of rows) {
    const values = (typeof row.ceilings === 'string' ? row.ceilings.replace(/[{}]/g, '').split(',').map(Number) : row.ceilings).map(toCents);
    if (row.category === null) ceilings.overall = values;
    else ceilings.byCategory[row.category] = values;
  }
  return ceilings;
}
