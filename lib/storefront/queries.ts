import { and, count, desc, eq, gte, ilike, lte, ne, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { publicProfileColumns } from '../auth/presenter.js';
import type { Database, Executor } from '../db/client.js';
import { categories, listings, users, type CustomSocial, type ListingStatus, type SchemaRule } from '../db/schema.js';

export interface PublicListingFilters {
  /** A category's display name or code, matched case-insensitively. */
  category?: string;
  /** A substring of the title or description, matched case-insensitively. */
  text?: string;
  priceMin?: number;
  priceMax?: number;
  /** Attribute name and the whole value it must have, matched case-insensitively. */
  attributes: Array<[name: string, value: string]>;
  /** Lowercased amenities that must all be present. */
  amenities: string[];
}

export interface PublicListingsPage {
  limit: number;
  /** When given, the total count is computed as well. */
  page?: number;
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

const publicListingColumns = {
  ...shownListingColumns,
  categoryDisplayName: categories.displayName,
  categoryRules: categories.schemaRules,
};

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
  /** The category's rules, whose order the presenter shows attributes in. */
  categoryRules: SchemaRule[];
}

/** Matches the `("status", "createdAt" DESC, id DESC)` index, so a page is read in index order rather than sorted. */
const newestFirst = desc(listings.createdAt);

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

function categoryMatches(nameOrDisplayName: string | SQLWrapper): SQL {
  return or(
    sql`lower(${categories.displayName}) = lower(${nameOrDisplayName})`,
    sql`lower(${categories.name}) = lower(${nameOrDisplayName})`,
  )!;
}

/** The listing's amenities as lowercased text, whether stored as an array or a comma-separated string. */
const amenitiesOfListing = sql`(case jsonb_typeof(${listings.attributes} -> 'amenities')
  when 'array' then array(select lower(btrim(item)) from jsonb_array_elements_text(${listings.attributes} -> 'amenities') as item)
  when 'string' then array(select lower(btrim(item)) from unnest(string_to_array(${listings.attributes} ->> 'amenities', ',')) as item)
  else array[]::text[] end)`;

/**
 * The filters as a statement shape (which filters are present) and the values it runs with. The
 * shape's conditions take their values from placeholders, so each shape is prepared only once.
 */
function publicListingStatement(filters: PublicListingFilters, { limit, page }: PublicListingsPage) {
  const conditions: SQL[] = [eq(listings.status, 'AVAILABLE')];
  const values: Record<string, unknown> = { limit, offset: ((page ?? 1) - 1) * limit };
  const shape: string[] = [page === undefined ? 'list' : 'page'];
  if (filters.category) {
    conditions.push(categoryMatches(sql.placeholder('category')));
    values.category = filters.category;
  }
  if (filters.text) {
    const pattern = sql.placeholder('pattern');
    conditions.push(or(ilike(listings.title, pattern), ilike(listings.description, pattern))!);
    values.pattern = `%${escapeLike(filters.text)}%`;
  }
  if (filters.priceMin !== undefined) {
    conditions.push(gte(listings.price, sql.placeholder('priceMin')));
    values.priceMin = filters.priceMin;
  }
  if (filters.priceMax !== undefined) {
    conditions.push(lte(listings.price, sql.placeholder('priceMax')));
    values.priceMax = filters.priceMax;
  }
  if (filters.attributes.length > 0) {
    // One containment test on listing_attribute_terms() (every attribute as lower-cased text),
    // served by a GIN index over available listings.
    conditions.push(sql`listing_attribute_terms(${listings.attributes}) @> ${sql.placeholder('attributes')}::jsonb`);
    values.attributes = JSON.stringify(Object.fromEntries(filters.attributes.map(([name, value]) => [name.toLowerCase(), value.toLowerCase()])));
  }
  if (filters.amenities.length > 0) {
    conditions.push(sql`${amenitiesOfListing} @> ${sql.placeholder('amenities')}::text[]`);
    values.amenities = filters.amenities;
  }
  shape.push(...Object.keys(values).filter((key) => key !== 'limit' && key !== 'offset'));
  return { where: and(...conditions)!, values, shape: shape.join('_') };
}

function selectPublicListings(executor: Executor, where: SQL, paged: boolean) {
  return executor
    .select({
      ...publicListingColumns,
      total: (paged ? sql<number>`count(*) over()` : sql<number | null>`null`).mapWith(Number),
    })
    .from(listings)
    .innerJoin(categories, eq(categories.id, listings.categoryId))
    .where(where)
    .orderBy(newestFirst, desc(listings.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'));
}

/** Storefront pages are the busiest statements: each filter shape is prepared once per database. */
const preparedPages = new WeakMap<Executor, Map<string, ReturnType<ReturnType<typeof selectPublicListings>['prepare']>>>();

function preparedPage(executor: Executor, shape: string, where: SQL, paged: boolean) {
  let byShape = preparedPages.get(executor);
  if (!byShape) {
    byShape = new Map();
    preparedPages.set(executor, byShape);
  }
  let prepared = byShape.get(shape);
  if (!prepared) {
    prepared = selectPublicListings(executor, where, paged).prepare(`public_listings_${shape}`);
    byShape.set(shape, prepared);
  }
  return prepared;
}

/**
 * Available listings matching the filters, newest first, in one query. The total comes from a
 * window count when a page is asked for; a page past the end has no row to carry it, so only
 * then is it counted apart.
 */
export async function findPublicListings(
  executor: Executor,
  filters: PublicListingFilters,
  page: PublicListingsPage,
): Promise<{ rows: PublicListingRow[]; total?: number }> {
  const { where, values, shape } = publicListingStatement(filters, page);
  const paged = page.page !== undefined;
  const rows = await preparedPage(executor, shape, where, paged).execute(values);
  if (!paged) return { rows };
  if (rows.length > 0) return { rows, total: rows[0]!.total ?? 0 };
  if (page.page === 1) return { rows, total: 0 };
  const [counted] = await executor
    .select({ total: count() })
    .from(listings)
    .innerJoin(categories, eq(categories.id, listings.categoryId))
    .where(where)
    .execute(values);
  return { rows, total: counted?.total ?? 0 };
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
 * A listing shown on the storefront (anything but ARCHIVED) with its agent, counting the view in
 * the same statement that reads it.
 */
function prepareViewPublicListing(executor: Database) {
  const viewed = executor.$with('viewed').as(
    executor
      .update(listings)
      .set({ viewsCount: sql`${listings.viewsCount} + 1`, updatedAt: sql`${listings.updatedAt}` })
      .where(and(eq(listings.id, sql.placeholder('id')), ne(listings.status, 'ARCHIVED')))
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
        categoryId: viewed.categoryId,
        categoryDisplayName: categories.displayName,
        categoryRules: categories.schemaRules,
      },
      agent: publicProfileColumns,
    })
    .from(viewed)
    .innerJoin(categories, eq(categories.id, viewed.categoryId))
    .leftJoin(users, eq(users.id, viewed.agentId))
    .prepare('view_public_listing');
}

/** The storefront's most frequent statement, built once per database instead of per request. */
const preparedViews = new WeakMap<Database, ReturnType<typeof prepareViewPublicListing>>();

/** Whether the storefront shows a listing (anything but ARCHIVED), without counting a view. */
export async function publicListingExists(executor: Executor, id: string): Promise<boolean> {
  const [row] = await executor.select({ id: listings.id }).from(listings).where(and(eq(listings.id, id), ne(listings.status, 'ARCHIVED'))).limit(1);
  return row !== undefined;
}

export async function viewPublicListing(
  db: Database,
  id: string,
): Promise<{ listing: PublicListingRow; agent: PublicAgentRow | null } | undefined> {
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
    .set({ inquiryClicks: sql`${listings.inquiryClicks} + 1`, updatedAt: sql`${listings.updatedAt}` })
    .where(and(eq(listings.id, id), ne(listings.status, 'ARCHIVED')))
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
      // The values present come from listing_attribute_values, which triggers keep per category
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
            from listing_attribute_values as offered
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
          from listing_attribute_values as offered
          where offered."categoryId" = matched.id and offered.listings > 0
          group by offered.field
          having count(*) > ${FILTER_VALUES_PER_FIELD}
        ) as crowded
      )`,
    })
    .from(matched);
  return row;
}
