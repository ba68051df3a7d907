import { and, eq, inArray } from 'drizzle-orm/sql/expressions/conditions';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { listingPriceBandTotals, listings } from '../db/schema.js';
import { queryRows } from '../db/query-rows.js';
import { newestFirst, type RowSelection } from './newest-first.js';
import { notTrashedById } from './queries.js';
import { BAND_QUOTA_FROM, BAND_QUOTA_ROOM } from './read-tuning.js';

/**
 * Available listings within a price range (of one category or all), newest first. Migration 0022
 * groups them into price bands with an index newest first within each band and keeps their count
 * per category and band.
 */
export interface PriceBandSearch {
  /** A category id, or an expression giving one (null matches nothing); undefined for every category. */
  categoryId: string | SQL | undefined;
  priceMin?: number;
  priceMax?: number;
  offset: number;
  limit: number;
  /** Whether the answer needs the total (a page was asked for). */
  counted: boolean;
}

const band = (price: number) => sql`listing_price_band(${price}::numeric)`;

/** The first and last band the range touches (every band when it is open at that end). */
function bandRange(search: PriceBandSearch): { first: SQL; last: SQL } {
  return {
    first: search.priceMin === undefined ? sql`0` : band(search.priceMin),
    last: search.priceMax === undefined ? sql`cardinality(listing_price_band_bounds())` : band(search.priceMax),
  };
}

/**
 * Available listings of the search's category, as the band indexes' partial predicate reads them,
 * out of the trash by their ids: every read here is of a band index alone.
 */
function availableIn(search: PriceBandSearch): SQL {
  return and(sql`${listings.status} = 'AVAILABLE'`, search.categoryId === undefined ? undefined : eq(listings.categoryId, search.categoryId), notTrashedById)!;
}

function withinRange(search: PriceBandSearch): SQL | undefined {
  return and(
    search.priceMin === undefined ? undefined : sql`${listings.price} >= ${search.priceMin}`,
    search.priceMax === undefined ? undefined : sql`${listings.price} <= ${search.priceMax}`,
  );
}

/** The kept counts of the range's bands, summed over categories when the search has none. */
function bandCounts(search: PriceBandSearch, first: SQL, last: SQL): SQL {
  return sql`select ${listingPriceBandTotals.band} as band, sum(${listingPriceBandTotals.listings}) as listings
    from ${listingPriceBandTotals}
    where ${and(
      search.categoryId === undefined ? undefined : eq(listingPriceBandTotals.categoryId, search.categoryId),
      sql`${listingPriceBandTotals.band} between ${first} and ${last}`,
    )}
    group by ${listingPriceBandTotals.band}`;
}

/**
 * The page's ids: the newest few of each band in the range, read from its index alone (the price
 * is the index's last column), merged newest first. A band gives at most its quota of rows: all
 * the rows the page needs (offset and limit), or (`proportional`) its share of them by its kept
 * count with room (BAND_QUOTA_ROOM). Each id says whether the merge is exact: it is unless a band
 * holding more than its quota gave a last row newer than the page's last (or the merge fell short
 * of the page), when a row of it the page needs was not read.
 */
function mergedBandPageIds(search: PriceBandSearch, proportional: boolean): SQL {
  const { first, last } = bandRange(search);
  const wanted = search.offset + search.limit;
  const quota = proportional
    ? sql`least(${wanted}::integer, ceil(${wanted * BAND_QUOTA_ROOM}::numeric * coalesce(kept.listings, 0) / greatest(sum(kept.listings) over (), 1))::integer + ${search.limit}::integer)`
    : sql`${wanted}::integer`;
  const newestOfBand = (columns: SQL, limit: SQL) => sql`select ${columns} from ${listings}
    where ${and(availableIn(search), sql`listing_price_band(${listings.price}) = bands.band`, withinRange(search))}
    order by ${listings.createdAt} desc, ${listings.id} desc
    ${limit}`;
  const columns = sql`${listings.id} as id, ${listings.createdAt} as "createdAt"`;
  return sql`with bands as (
      select bands.band, ${quota} as quota, coalesce(kept.listings, 0) as listings
      from generate_series(${first}::integer, ${last}::integer) as bands(band)
      left join (${bandCounts(search, first, last)}) as kept on kept.band = bands.band
    ), merged as (
      select newest.id, newest."createdAt", row_number() over (order by newest."createdAt" desc, newest.id desc) as position
      from bands cross join lateral (${newestOfBand(columns, sql`limit bands.quota`)}) as newest
    ), "lastRead" as (
      select "lastOfBand".id, "lastOfBand"."createdAt"
      from bands cross join lateral (${newestOfBand(columns, sql`offset bands.quota - 1 limit 1`)}) as "lastOfBand"
      where bands.quota < bands.listings
    )
    select id, not exists (
      select from "lastRead" left join merged as "pageEnd" on "pageEnd".position = ${wanted}::integer
      where "pageEnd".id is null or ("lastRead"."createdAt", "lastRead".id) > ("pageEnd"."createdAt", "pageEnd".id)
    ) as exact
    from merged where position > ${search.offset} and position <= ${wanted} order by position`;
}

/** Whether the page reads each band by its quota: a deep one. */
const isDeep = (search: PriceBandSearch) => search.offset + search.limit >= BAND_QUOTA_FROM;

/** The page's ids in order: on a deep page by quotas first, again in full when they fell short. */
async function findPageIds(executor: Executor, search: PriceBandSearch): Promise<string[]> {
  if (isDeep(search)) {
    const byQuota = await queryRows<{ id: string; exact: boolean }>(executor, mergedBandPageIds(search, true));
    if (byQuota.length > 0 && byQuota.every((row) => row.exact)) return byQuota.map((row) => row.id);
  }
  return (await queryRows<{ id: string }>(executor, mergedBandPageIds(search, false))).map((row) => row.id);
}

/**
 * How many listings the range holds: the kept totals of the bands it holds whole, and a count of
 * the ones it cuts, read from their index alone. The range cuts the band of its floor, and the band
 * of its ceiling unless the ceiling is a band's bound (as usual ceilings are).
 */
async function rangeTotal(executor: Executor, search: PriceBandSearch): Promise<number> {
  const { first, last } = bandRange(search);
  const cutBands = sql`array_remove(array[
    ${search.priceMin === undefined ? sql`null` : first},
    ${search.priceMax === undefined ? sql`null` : sql`case when ${search.priceMax}::numeric = any(listing_price_band_bounds()) then null else ${last} end`}
  ]::smallint[], null)`;
  const wholeBands = and(
    search.categoryId === undefined ? undefined : eq(listingPriceBandTotals.categoryId, search.categoryId),
    sql`${listingPriceBandTotals.band} between ${first} and ${last}`,
    sql`not ${listingPriceBandTotals.band} = any(${cutBands})`,
  );
  const [row] = await queryRows<{ total: number | string }>(
    executor,
    sql`select coalesce((select sum(${listingPriceBandTotals.listings}) from ${listingPriceBandTotals} where ${wholeBands}), 0)
      + (select count(*) from ${listings} where ${and(availableIn(search), sql`listing_price_band(${listings.price}) = any(${cutBands})`, withinRange(search))}) as total`,
  );
  return Number(row?.total ?? 0);
}

/**
 * A page of the range's listings newest first, with (when counted) their exact total. A deep page
 * asks the total first, and reads nothing when the page lies past it.
 */
export async function priceBandPage<Row>(
  executor: Executor,
  search: PriceBandSearch,
  selectRows: RowSelection<Row>,
): Promise<{ rows: Row[]; total?: MatchedTotal }> {
  const counted = search.counted ? (isDeep(search) ? await rangeTotal(executor, search) : rangeTotal(executor, search)) : undefined;
  const pastTheEnd = typeof counted === 'number' && counted <= search.offset;
  const [ids, total] = await Promise.all([pastTheEnd ? [] : findPageIds(executor, search), counted]);
  const rows = ids.length === 0 ? [] : await selectRows(executor).where(inArray(listings.id, ids)).orderBy(...newestFirst);
  return { rows, total: total === undefined ? undefined : { total, exact: true } };
}

/** The range's total alone: for a page past the served results. */
export async function priceBandTotal(executor: Executor, search: PriceBandSearch): Promise<MatchedTotal> {
  return { total: await rangeTotal(executor, search), exact: true };
}
