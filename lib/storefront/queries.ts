import { and, eq, ne, or } from 'drizzle-orm/sql/expressions/conditions';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm/sql/sql';
import { publicProfileColumns } from '../auth/presenter.js';
import type { Database, Executor } from '../db/client.js';
import { categories, listingAttributeValues, listings, users, type CustomSocial, type ListingStatus, type SchemaRule } from '../db/schema.js';
import { countListings } from '../db/kept-totals.js';
import { listingUnedited } from '../db/unedited.js';
import { photoRecordsOf, type PhotoRecord } from '../media/photo-records.js';
import type { NewestFirstSearch } from '../listings/newest-first.js';
import { notTrashed, outOfTrash } from '../listings/queries.js';
import { allOf, filtersQuery, searchQuery } from './document-query.js';
import type { TextSearch } from './word-expansion.js';
import { documentMatches, type DocumentSearch } from './document-reads.js';

export interface PublicListingFilters {
  /** A category's display name or code, matched case-insensitively. */
  category?: string;
  /** The id of the category `category` names (categoryIdNamed()); null when it names none, which nothing matches. */
  categoryId?: string | null;
  /** Words matched as the search document is (see docs/search.md). */
  search?: TextSearch;
  priceMin?: number;
  priceMax?: number;
  /** Attribute name and the whole value it must have, matched case-insensitively. */
  attributes: Array<[name: string, value: string]>;
  /** Lowercased amenities that must all be present. */
  amenities: string[];
}

/** The listing's own columns the storefront shows. */
const shownListingColumns = {
  id: listings.id,
  title: listings.title,
  description: listings.description,
  price: listings.price,
  status: listings.status,
  stockQuantity: listings.stockQuantity,
  attributes: listings.attributes,
  images: listings.images,
  categoryId: listings.categoryId,
};

/** A storefront listing with its category's name and rules (whose order the presenter shows attributes in). */
export interface PublicListingRow {
  id: string;
  title: string;
  description: string;
  price: number;
  status: ListingStatus;
  stockQuantity: number;
  attributes: Record<string, unknown>;
  images: string[];
  categoryId: string;
  categoryDisplayName: string;
  categoryRules: SchemaRule[];
}

/** A row of a storefront page: the category's rules come from categoryRulesOf(), by version. */
export type PublicListingPageRow = Omit<PublicListingRow, 'categoryRules'> & { categoryVersion: Date };

function categoryMatches(nameOrDisplayName: string | SQLWrapper): SQL {
  return or(
    sql`lower(${categories.displayName}) = lower(${nameOrDisplayName})`,
    sql`lower(${categories.name}) = lower(${nameOrDisplayName})`,
  )!;
}

/**
 * The id of the category a storefront `category` filter names, as a scalar subquery (null when
 * none does, which matches nothing): a display name match wins over a code match. Compared with
 * `=`, it lets a category's pages be read newest first from its own index.
 */
export function categoryNamed(nameOrDisplayName: string | SQLWrapper): SQL<string | null> {
  return sql<string | null>`(select ${categories.id} from ${categories} where ${categoryMatches(nameOrDisplayName)}
    order by lower(${categories.displayName}) = lower(${nameOrDisplayName}) desc, ${categories.name} limit 1)`;
}

/** The attribute filters as the `name=value` terms the search documents hold (lower-cased). */
export function attributeTermsOf(filters: PublicListingFilters): string[] {
  return filters.attributes.map(([name, value]) => `${name.toLowerCase()}=${value.toLowerCase()}`);
}

/** Whether any filter is read from the search documents: everything but the category alone. */
export function hasDocumentFilters(filters: PublicListingFilters): boolean {
  return (
    filters.search !== undefined ||
    filters.priceMin !== undefined ||
    filters.priceMax !== undefined ||
    filters.attributes.length > 0 ||
    filters.amenities.length > 0
  );
}

/**
 * The filters as the search index reads them, the words matched at their loosest (any way a
 * word matches, typos included); `withCategory` adds the category to the query.
 */
export function documentSearchOf(filters: PublicListingFilters, withCategory: boolean): Pick<DocumentSearch, 'query' | 'priceMin' | 'priceMax'> {
  return {
    query: allOf(
      filters.search === undefined ? undefined : searchQuery(filters.search, 'near'),
      filtersQuery({
        attributeTerms: attributeTermsOf(filters),
        amenities: filters.amenities,
        categoryId: withCategory ? (filters.categoryId ?? undefined) : undefined,
      }),
    ),
    priceMin: filters.priceMin,
    priceMax: filters.priceMax,
  };
}

/** The id of the category a storefront `category` filter names (see categoryNamed()), or null. */
export async function categoryIdNamed(executor: Executor, nameOrDisplayName: string): Promise<string | null> {
  const [row] = await executor.select({ id: sql<string | null>`${categoryNamed(nameOrDisplayName)}` }).from(sql`(select 1) as one`);
  return row?.id ?? null;
}

/** The storefront page's columns, from `listings` and its category, for the page readers. */
export function publicPageRows(source: Pick<Executor, 'select'>) {
  return source
    .select({ ...shownListingColumns, categoryId: categories.id, categoryDisplayName: categories.displayName, categoryVersion: categories.updatedAt })
    .from(listings)
    .innerJoin(categories, eq(categories.id, listings.categoryId))
    .$dynamic();
}

/**
 * The storefront's filters split as a filter panel reads them: available listings (of the
 * category) out of the trash, counted by the kept totals; the rest checked per row, which the
 * search index serves.
 */
export function publicSearch(executor: Executor, filters: PublicListingFilters): Omit<NewestFirstSearch, 'offset' | 'limit' | 'counted'> {
  const categoryId = filters.category ? categoryNamed(filters.category) : undefined;
  return {
    ...outOfTrash(and(eq(listings.status, 'AVAILABLE'), categoryId === undefined ? undefined : eq(listings.categoryId, categoryId))),
    indexedCount: () => countListings(executor, { status: 'AVAILABLE', categoryId }),
    checked: hasDocumentFilters(filters) ? documentMatches(documentSearchOf(filters, false)) : undefined,
  };
}

export interface PublicAgentRow {
  id: string;
  name: string;
  phone: string;
  profileImage: string | null;
  social_1: string | null;
  social_2: string | null;
  social_3: string | null;
  social_4: string | null;
  social_5: string | null;
  social_6: string | null;
  social_7: string | null;
  social_8: string | null;
  website: string | null;
  customSocials: CustomSocial[];
}

/**
 * A listing shown on the storefront (anything but ARCHIVED, out of the trash) with its agent and
 * its photos' records, counting the view in the same statement that reads them: one round trip.
 */
/**
 * A condition that always holds and lets this statement's own transaction commit without waiting
 * for its write-ahead log to reach the disk: a view count lost in a database crash costs nothing,
 * while waiting for the disk on every storefront view is most of the view's cost. Every other write
 * keeps the database's setting.
 */
const viewCountNeedNotWaitForDisk = sql`set_config('synchronous_commit', 'off', true) is not null`;

function prepareViewPublicListing(executor: Database) {
  const viewed = executor.$with('viewed').as(
    executor
      .update(listings)
      .set({ viewsCount: sql`${listings.viewsCount} + 1`, ...listingUnedited })
      .where(and(eq(listings.id, sql.placeholder('id')), ne(listings.status, 'ARCHIVED'), notTrashed, viewCountNeedNotWaitForDisk))
      .returning({ ...shownListingColumns, agentId: listings.agentId }),
  );
  return executor
    .with(viewed)
    .select({
      listing: {
        id: viewed.id,
        title: viewed.title,
        description: viewed.description,
        price: viewed.price,
        status: viewed.status,
        stockQuantity: viewed.stockQuantity,
        attributes: viewed.attributes,
        images: viewed.images,
        categoryId: categories.id,
        categoryDisplayName: categories.displayName,
        categoryRules: categories.schemaRules,
      },
      agent: publicProfileColumns,
      photoRecords: photoRecordsOf(sql`${viewed.images}`),
    })
    .from(viewed)
    .innerJoin(categories, eq(categories.id, viewed.categoryId))
    .leftJoin(users, eq(users.id, viewed.agentId))
    .prepare('view_public_listing');
}

/** The storefront's most frequent statement, built once per database instead of per request. */
const preparedViews = new WeakMap<Database, ReturnType<typeof prepareViewPublicListing>>();

/** Whether the storefront shows a listing (anything but ARCHIVED, out of the trash), without counting a view. */
export async function publicListingExists(executor: Executor, id: string): Promise<boolean> {
  const [row] = await executor.select({ id: listings.id }).from(listings).where(and(eq(listings.id, id), ne(listings.status, 'ARCHIVED'), notTrashed)).limit(1);
  return row !== undefined;
}

export async function viewPublicListing(
  db: Database,
  id: string,
): Promise<{ listing: PublicListingRow; agent: PublicAgentRow | null; photoRecords: PhotoRecord[] } | undefined> {
  let prepared = preparedViews.get(db);
  if (!prepared) {
    prepared = prepareViewPublicListing(db);
    preparedViews.set(db, prepared);
  }
  const [row] = await prepared.execute({ id });
  return row;
}

/** Counts one inquiry click on a listing the storefront shows; false when there is none. */
export async function countInquiry(executor: Executor, id: string): Promise<boolean> {
  const rows = await executor
    .update(listings)
    .set({ inquiryClicks: sql`${listings.inquiryClicks} + 1`, ...listingUnedited })
    .where(and(eq(listings.id, id), ne(listings.status, 'ARCHIVED'), notTrashed))
    .returning({ id: listings.id });
  return rows.length > 0;
}

export interface CategoryFilterValues {
  schemaRules: SchemaRule[];
  /** For each rule field, the distinct scalar values its available listings carry, as text: at most FILTER_VALUES_PER_FIELD, the most common. */
  values: Record<string, string[]>;
  /** Rule fields whose available listings carry more values than `values` offers. */
  cutFields: string[];
}

/** Free-text fields can take any number of values; a filter panel offers the most common ones. */
export const FILTER_VALUES_PER_FIELD = 100;

/**
 * A category's rules and, in the same query, the attribute values present among its available
 * listings. A display name match wins over a code match when both name different categories.
 */
export async function findCategoryFilterValues(executor: Executor, nameOrDisplayName: string): Promise<CategoryFilterValues | undefined> {
  const matched = executor.$with('matched').as(
    executor
      .select({ id: categories.id, schemaRules: categories.schemaRules })
      .from(categories)
      .where(categoryMatches(nameOrDisplayName))
      .orderBy(sql`lower(${categories.displayName}) = lower(${nameOrDisplayName}) desc`, categories.name)
      .limit(1),
  );
  const [row] = await executor
    .with(matched)
    .select({
      schemaRules: matched.schemaRules,
      // The values present come from the attribute values triggers keep per category
      // (migration 0008), so no listing is read. A field offers at most FILTER_VALUES_PER_FIELD
      // values, those most listings carry. Written with its own aliases: drizzle leaves columns
      // unqualified in a single-table select.
      values: sql<Record<string, string[]>>`(
        select coalesce(jsonb_object_agg(present.field, present.present_values), '{}'::jsonb)
        from (
          select ranked.field, jsonb_agg(ranked.value) filter (where ranked.rank <= ${FILTER_VALUES_PER_FIELD}) as present_values
          from (
            select offered.field, offered.value,
              row_number() over (partition by offered.field order by offered.listings desc, offered.value) as rank
            from ${listingAttributeValues} as offered
            where offered."categoryId" = matched.id
              and offered.listings > 0
              and offered.field in (select item ->> 'field' from jsonb_array_elements(matched."schemaRules") as item)
          ) as ranked
          where ranked.rank <= ${FILTER_VALUES_PER_FIELD + 1}
          group by ranked.field
        ) as present
      )`,
      /** The fields that have more values than they offer. */
      cutFields: sql<string[]>`(
        select coalesce(jsonb_agg(distinct crowded.field), '[]'::jsonb)
        from (
          select offered.field
          from ${listingAttributeValues} as offered
          where offered."categoryId" = matched.id and offered.listings > 0
          group by offered.field
          having count(*) > ${FILTER_VALUES_PER_FIELD}
        ) as crowded
      )`,
    })
    .from(matched);
  return row;
}
