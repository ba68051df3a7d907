import { and, eq, inArray } from 'drizzle-orm/sql/expressions/conditions';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import { estimatedRows } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { listingAttributeValues, listings } from '../db/schema.js';
import { countListings } from '../listings/kept-totals.js';
import { categoryNamed, checkedConditions, type PublicListingFilters } from './queries.js';

/**
 * The most matching listings whose values are counted one by one: finding and reading them costs
 * about 20 µs each at a million listings, so past these the counts are the share of the listings read, scaled to the
 * estimated total, and flagged (D31).
 */
export const COUNTED_LISTINGS = 1_000;

/** Per field, per lower-cased value, how many listings it would leave. */
export type FieldCounts = Map<string, Map<string, number>>;

export interface FacetCounts {
  /** For each field, counted with every filter but the field's own (disjunctive faceting). */
  counts: FieldCounts;
  total: number;
  priceRange: { min: number | null; max: number | null };
  /** False when more than COUNTED_LISTINGS listings match: counts and total are then estimates (D31). */
  exact: boolean;
}

/** Available listings (of the filters' category) matching `filters`. */
function matchingWhere(filters: PublicListingFilters): SQL {
  return and(
    eq(listings.status, 'AVAILABLE'),
    filters.category ? eq(listings.categoryId, categoryNamed(filters.category)) : undefined,
    checkedConditions(filters),
  )!;
}

interface CountedValues {
  counts: FieldCounts;
  /** How many listings match: exact up to COUNTED_LISTINGS, an estimate beyond. */
  total: number;
  exact: boolean;
  /** The price range, when every match was read. */
  priceRange?: FacetCounts['priceRange'];
}

/** Values and totals of a whole category, from the counts the statistics trigger keeps: exact, and no listing read. */
async function keptValues(executor: Executor, category: string, fields: string[]): Promise<CountedValues> {
  const categoryId = categoryNamed(category);
  const [rows, total] = await Promise.all([
    executor
      .select({ field: listingAttributeValues.field, value: sql<string>`lower(${listingAttributeValues.value})`, listings: listingAttributeValues.listings })
      .from(listingAttributeValues)
      .where(and(eq(listingAttributeValues.categoryId, categoryId), inArray(listingAttributeValues.field, fields.length > 0 ? fields : ['']))),
    countListings(executor, { status: 'AVAILABLE', categoryId }),
  ]);
  return { counts: countsOf(rows), total, exact: true };
}

function countsOf(rows: Array<{ field: string | null; value: string | null; listings: number }>, scale = 1): FieldCounts {
  const counts: FieldCounts = new Map();
  for (const row of rows) {
    if (row.field === null || row.value === null) continue;
    const values = counts.get(row.field) ?? new Map<string, number>();
    values.set(row.value, (values.get(row.value) ?? 0) + Math.round(Number(row.listings) * scale));
    counts.set(row.field, values);
  }
  return counts;
}

/**
 * How many listings matching `filters` carry each value of `fields`: from the kept counts for a
 * whole category; otherwise counted over at most COUNTED_LISTINGS + 1 of them: exact up to the
 * limit; beyond it, the share of the rows read, scaled to the planner's estimate of the total,
 * flagged.
 */
async function countValues(executor: Executor, filters: PublicListingFilters, fields: string[]): Promise<CountedValues> {
  if (filters.category && checkedConditions(filters) === undefined) return keptValues(executor, filters.category, fields);
  const where = matchingWhere(filters);
  const { rows } = (await executor.execute(sql`
    with sampled as (select ${listings} as listing, ${listings.price} as price from ${listings} where ${where} limit ${COUNTED_LISTINGS + 1})
    select null as field, null as value, count(*)::int as listings, min(price)::float8 as lowest, max(price)::float8 as highest from sampled
    union all
    select offered.field, lower(offered.value), count(*)::int, null, null
    from sampled, listing_filter_values(sampled.listing) as offered
    where offered.field = any(${sql.param(fields)}::text[])
    group by 1, 2`)) as unknown as {
    rows: Array<{ field: string | null; value: string | null; listings: number; lowest: number | null; highest: number | null }>;
  };
  const read = rows.find((row) => row.field === null);
  const sampledRows = Number(read?.listings ?? 0);
  const exact = sampledRows <= COUNTED_LISTINGS;
  const total = exact ? sampledRows : Math.max(await estimatedRows(executor, sql`select 1 from ${listings} where ${where}`), sampledRows);
  const scale = total / Math.max(sampledRows, 1);
  const priceRange = exact ? { min: read?.lowest ?? null, max: read?.highest ?? null } : undefined;
  return { counts: countsOf(rows, scale), total, exact, priceRange };
}

/** The lowest and highest price among the listings matching `filters`, each read from the price index. */
async function priceRangeOf(executor: Executor, filters: PublicListingFilters): Promise<FacetCounts['priceRange']> {
  const where = matchingWhere(filters);
  const [lowest, highest] = await Promise.all([
    executor.select({ price: listings.price }).from(listings).where(where).orderBy(sql`${listings.price} asc`).limit(1),
    executor.select({ price: listings.price }).from(listings).where(where).orderBy(sql`${listings.price} desc`).limit(1),
  ]);
  return { min: lowest[0]?.price ?? null, max: highest[0]?.price ?? null };
}

/**
 * Facet counts for a filter panel (D37): each field's values counted with the other filters (a
 * field's own selection does not narrow its own counts), the total and the price range of the
 * current result.
 */
export async function findFacetCounts(executor: Executor, filters: PublicListingFilters, fields: string[]): Promise<FacetCounts> {
  const selected = new Set(filters.attributes.map(([name]) => name.toLowerCase()));
  const ownSelection = fields.filter((field) => selected.has(field.toLowerCase()));
  const others = fields.filter((field) => !selected.has(field.toLowerCase()));
  const [all, ...own] = await Promise.all([
    countValues(executor, filters, others),
    ...ownSelection.map((field) =>
      countValues(executor, { ...filters, attributes: filters.attributes.filter(([name]) => name.toLowerCase() !== field.toLowerCase()) }, [field]),
    ),
  ]);
  const counts: FieldCounts = new Map(all.counts);
  ownSelection.forEach((field, index) => counts.set(field, own[index]!.counts.get(field) ?? new Map()));
  const priceRange = all.priceRange ?? (await priceRangeOf(executor, filters));
  return { counts, total: all.total, priceRange, exact: all.exact && own.every((counted) => counted.exact) };
}
