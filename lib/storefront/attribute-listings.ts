import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';
import { listingAttributeValues } from '../db/schema.js';

/**
 * How many available listings hold an attribute filter's value, by the counts the statistics
 * trigger keeps per category, field and value (`listing_attribute_values`, migration 0008),
 * matched case-insensitively as a filter is. Every storefront filter is kept there: its names are
 * fixed and its values at most 200 characters, where the counts keep values up to 2,000 bytes.
 */
export interface AttributeListings {
  /** Every kept count of the value, summed: about how many listings the filter matches. */
  listings: number;
  /**
   * How many listings the filter surely matches: in each category, the largest one count of the
   * value (one spelling of its name and value), summed over the categories. A listing holding
   * both `Brand` and `brand` is counted under each, so the spellings of one category are not added.
   */
  surely: number;
}

/**
 * The kept counts of each attribute filter, in the filters' order, within the category when one
 * is given: one read of a few rows per filter, whatever the number of listings.
 */
export async function attributeListings(
  executor: Executor,
  attributes: ReadonlyArray<readonly [name: string, value: string]>,
  categoryId: string | undefined,
): Promise<AttributeListings[]> {
  const rows = await queryRows<{ listings: number | string; surely: number | string }>(
    executor,
    sql`select coalesce(sum(per_category.listings), 0) as listings, coalesce(sum(per_category.surely), 0) as surely
      from unnest(${sql.param(attributes.map(([name]) => name.toLowerCase()))}::text[], ${sql.param(attributes.map(([, value]) => value.toLowerCase()))}::text[])
        with ordinality as filter (name, value, position)
      left join lateral (
        select sum(held.listings) as listings, max(held.listings) as surely
        from ${listingAttributeValues} as held
        where lower(held.field) = filter.name and lower(held.value) = filter.value and held.listings > 0
          ${categoryId === undefined ? sql`` : sql`and held."categoryId" = ${categoryId}`}
        group by held."categoryId"
      ) as per_category on true
      group by filter.position
      order by filter.position`,
  );
  return rows.map((row) => ({ listings: Number(row.listings), surely: Number(row.surely) }));
}
