import { and, eq, inArray } from 'drizzle-orm/sql/expressions/conditions';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';
import { listingAttributeValues, listings } from '../db/schema.js';
import { countListings } from '../db/kept-totals.js';
import { COUNTED_LISTINGS, SAMPLED_CANDIDATES, SAMPLED_PAGES } from '../listings/read-tuning.js';
import { throughBitmapScans } from '../listings/newest-first.js';
import { matchesAtMost, priceRangeOf } from './list-reads.js';
import { categoryNamed, publicSearch, type PublicListingFilters } from './queries.js';
import { planFacetCounts, type FacetCountPlan } from './read-plan.js';

/** Per field, per lower-cased value, how many listings it would leave. */
export type FieldCounts = Map<string, Map<string, number>>;

export interface FacetCounts {
  /** For each field, counted with every filter but the field's own (disjunctive faceting). */
  counts: FieldCounts;
  total: number;
  priceRange: { min: number | null; max: number | null };
  /** False when more than COUNTED_LISTINGS listings match: counts and total are then estimates from a sample, flagged as such. */
  exact: boolean;
  /** The plans the counts were read by (see planFacetCounts()): the other fields', then each selected field's own. */
  plans: Array<FacetCountPlan['name'] | 'no-match'>;
}

type StorefrontSearch = ReturnType<typeof publicSearch>;

interface CountedValues {
  counts: FieldCounts;
  /** How many listings match: exact up to COUNTED_LISTINGS, an estimate beyond. */
  total: number;
  exact: boolean;
}

interface ValueRow {
  field: string | null;
  value: string | null;
  listings: number;
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

function countsOf(rows: ValueRow[], scale = 1): FieldCounts {
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
 * The filter values of the row of `listings` joined in, as `offered(field, value)`. The function is
 * inlined, so it reads the attributes alone, where a listing kept whole in a statement's rows
 * carries its search document out of storage: about 20 µs a listing at a million listings.
 */
const filterValuesOf = sql`listing_filter_values(${listings}) as offered`;

/**
 * The rows counting the values of `fields`, after the row of the total: none without fields (a
 * panel without a category), so that no match is read again for values nobody asked (a tenth of
 * `filter-options?q=galaxy`'s sampled count at a million listings).
 */
function valuesOf(fields: string[], counting: SQL): SQL {
  return fields.length === 0 ? sql`` : sql`union all ${counting}`;
}

/**
 * The values of `fields` the matches carry, counted one by one; undefined when more than
 * COUNTED_LISTINGS match. Asked when the matches are few (the candidates, or a sample of them,
 * say so): they are found through the filters' own indexes.
 */
async function countedValues(executor: Executor, search: StorefrontSearch, fields: string[]): Promise<CountedValues | undefined> {
  const rows = await throughBitmapScans(executor, (tx) => queryRows<ValueRow>(
    tx,
    sql`
    with matching as (
      select ${listings.id} as id from ${listings}
      where ${and(search.indexed, search.checked)} limit ${COUNTED_LISTINGS + 1}
    )
    select null as field, null as value, count(*)::int as listings from matching
    ${valuesOf(fields, sql`select offered.field, lower(offered.value), count(*)::int
    from matching join ${listings} on ${listings.id} = matching.id, ${filterValuesOf}
    where offered.field = any(${sql.param(fields)}::text[])
    group by 1, 2`)}`,
  ));
  const matched = Number(rows.find((row) => row.field === null)?.listings ?? 0);
  if (matched > COUNTED_LISTINGS) return undefined;
  return { counts: countsOf(rows), total: matched, exact: true };
}

/**
 * The values of `fields` estimated from a sample of the table's pages: sized to hold about
 * SAMPLED_CANDIDATES of the `candidates`, at most SAMPLED_PAGES pages, and the same pages every
 * time, so answers are stable and those pages stay in the database's cache. The matches among
 * the sampled candidates, and their values, are scaled to every candidate.
 */
async function sampledValues(executor: Executor, search: StorefrontSearch, fields: string[], candidates: number): Promise<CountedValues> {
  const percent = Math.min(100, (100 * SAMPLED_CANDIDATES) / Math.max(candidates, 1));
  // Through bitmap scans for the JIT's sake: the planner prices the sampled rows it joins back
  // far above what they are, and compiling the plan took 26 ms of the 70 it ran.
  const rows = await throughBitmapScans(executor, (tx) => queryRows<ValueRow & { candidates: number | null }>(
    tx,
    sql`
    with sampled as (
      select ${listings.id} as id, coalesce(${search.checked ?? sql`true`}, false) as matched
      from ${listings} tablesample system (least(${percent}::float8,
        (select 100.0 * ${SAMPLED_PAGES} / greatest(relpages, 1) from pg_class where oid = 'listings'::regclass))) repeatable (0)
      where ${search.indexed}
    )
    select null as field, null as value, (count(*) filter (where matched))::int as listings, count(*)::int as candidates from sampled
    ${valuesOf(fields, sql`select offered.field, lower(offered.value), count(*)::int, null
    from sampled join ${listings} on ${listings.id} = sampled.id, ${filterValuesOf}
    where sampled.matched and offered.field = any(${sql.param(fields)}::text[])
    group by 1, 2`)}`,
  ));
  const read = rows.find((row) => row.field === null);
  const sampledCandidates = Number(read?.candidates ?? 0);
  const scale = sampledCandidates === 0 ? 0 : candidates / sampledCandidates;
  return { counts: countsOf(rows, scale), total: Math.round(Number(read?.listings ?? 0) * scale), exact: false };
}

/**
 * With many candidates the sample comes first: it tells whether counting one by one would stop at
 * the limit, so broad filters never read COUNTED_LISTINGS rows for nothing. Unless the kept counts
 * of the words and attribute values say no more than that match: then they are counted at once,
 * and no sampled listing is read for nothing.
 */
async function filteredValues(executor: Executor, filters: PublicListingFilters, search: StorefrontSearch, fields: string[]): Promise<CountedValues> {
  const [candidates, most] = await Promise.all([search.indexedCount(), matchesAtMost(executor, filters)]);
  const few = candidates <= COUNTED_LISTINGS || (most !== undefined && most <= COUNTED_LISTINGS);
  const sampled = few ? undefined : await sampledValues(executor, search, fields, candidates);
  if (sampled && sampled.total > COUNTED_LISTINGS) return sampled;
  return (await countedValues(executor, search, fields)) ?? sampled ?? sampledValues(executor, search, fields, candidates);
}

/** How many listings matching `filters` carry each value of `fields`, read as planFacetCounts() chooses. */
async function countValues(executor: Executor, filters: PublicListingFilters, fields: string[]): Promise<CountedValues & { plan: FacetCountPlan['name'] }> {
  const plan = planFacetCounts(filters);
  const search = publicSearch(executor, filters);
  switch (plan.name) {
    case 'kept-counts':
      return { ...(await keptValues(executor, filters.category!, fields)), plan: plan.name };
    case 'indexed-count':
      return { counts: new Map(), total: await search.indexedCount(), exact: true, plan: plan.name };
    case 'filtered-counts':
      return { ...(await filteredValues(executor, filters, search, fields)), plan: plan.name };
  }
}

/**
 * Facet counts for a filter panel: each field's values counted with the other filters (a
 * field's own selection does not narrow its own counts), the total and the price range of the
 * current result.
 */
export async function findFacetCounts(executor: Executor, filters: PublicListingFilters, fields: string[]): Promise<FacetCounts> {
  if (filters.search?.matchesNothing || filters.categoryId === null) return { counts: new Map(), total: 0, priceRange: { min: null, max: null }, exact: true, plans: ['no-match'] };
  const selected = new Set(filters.attributes.map(([name]) => name.toLowerCase()));
  const ownSelection = fields.filter((field) => selected.has(field.toLowerCase()));
  const others = fields.filter((field) => !selected.has(field.toLowerCase()));
  const [priceRange, [all, ...own]] = await Promise.all([
    priceRangeOf(executor, filters),
    Promise.all([
      countValues(executor, filters, others),
      ...ownSelection.map((field) =>
        countValues(executor, { ...filters, attributes: filters.attributes.filter(([name]) => name.toLowerCase() !== field.toLowerCase()) }, [field]),
      ),
    ]),
  ]);
  const counts: FieldCounts = new Map(all.counts);
  ownSelection.forEach((field, index) => counts.set(field, own[index]!.counts.get(field) ?? new Map()));
  return { counts, total: all.total, priceRange, exact: all.exact && own.every((counted) => counted.exact), plans: [all.plan, ...own.map((counted) => counted.plan)] };
}
