import { and, arrayOverlaps, eq, gte, isNotNull, isNull, lte } from 'drizzle-orm/sql/expressions/conditions';
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import { getTableColumns } from 'drizzle-orm/utils';
import type { MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { categories, listings, users } from '../db/schema.js';
import { offsetOf, type PageQuery } from '../http/common-schemas.js';
import { countAgentListings, countListings } from '../db/kept-totals.js';
import { newestFirstPage, type NewestFirstSearch } from './newest-first.js';
import type { ListingListQuery } from './schema.js';
import { textMatches } from './text-search.js';

/**
 * A listing's columns but its search document, which only the database's search reads: it is the
 * largest of them (about 1.5 kB a listing, five times its description), and every read of whole
 * listings would carry it out of storage and over the wire for nothing.
 */
const { searchDocument: _searchDocument, ...columnsButSearchDocument } = getTableColumns(listings);
export const listingColumns = columnsButSearchDocument;

export type ListingRow = Omit<typeof listings.$inferSelect, 'searchDocument'>;
/** A listing in the shop (out of the trash): its category is always set (the check of migration 0029). */
export type ShopListingRow = ListingRow & { categoryId: string };

/** A row read out of the trash as the listing in the shop it is; a row without its category breaks the schema's own check. */
export function inShop(row: ListingRow): ShopListingRow {
  if (row.categoryId === null) throw new Error(`Listing ${row.id} is in the shop without a category`);
  return { ...row, categoryId: row.categoryId };
}
export type NewListing = typeof listings.$inferInsert;
/** Column changes of an update; `stockQuantity` and `status` may be SQL computed from the row itself. */
export type ListingChanges = { [K in keyof NewListing]?: NewListing[K] | SQL };

/**
 * A listing out of the trash: every read of listings but the trash's own and those of a write
 * that may find a trashed listing (moving it back, removing it for good) holds this condition.
 * Trashed listings are few, so it is checked on the rows an index gives, never served by one.
 */
export const notTrashed: SQL = isNull(listings.deletedAt);

/**
 * notTrashed on a listing's id alone, for reads of an index alone (a deep page's ids, the price
 * bands), where checking `deletedAt` would read every row the index walks: the trashed ids are read
 * once from the trash's own index into a hash, and each entry's id is looked up in it.
 */
export const notTrashedById: SQL = sql`${listings.id} not in (select trashed.id from ${listings} as trashed where trashed."deletedAt" is not null)`;

/** The listings an index's `conditions` give, out of the trash, as a newest-first search takes them (see NewestFirstSearch). */
export function outOfTrash(conditions: SQL | undefined): Pick<NewestFirstSearch, 'indexed' | 'indexOnly'> {
  return { indexed: and(conditions, notTrashed), indexOnly: and(conditions, notTrashedById) };
}

export interface AgentSummary {
  id: string;
  name: string;
  phone: string;
}

/** A listing with the summary of its category and agent, as every listing response carries them. */
const listingDetailColumns = {
  ...listingColumns,
  /** Null only for a listing in the trash whose category was deleted since. */
  category: { id: categories.id, name: categories.name, displayName: categories.displayName, icon: categories.icon },
  agent: { id: users.id, name: users.name, phone: users.phone },
};

/**
 * Listings joined to their category (null for a trashed listing whose category was deleted since)
 * and agent (null when the agent is gone), in one query. A dynamic builder: callers add their own
 * where, order and paging.
 */
export function selectListingDetails(executor: Executor) {
  return executor
    .select(listingDetailColumns)
    .from(listings)
    .leftJoin(categories, eq(categories.id, listings.categoryId))
    .leftJoin(users, eq(users.id, listings.agentId))
    .$dynamic();
}

export type ListingDetailRow = Awaited<ReturnType<typeof selectListingDetails>>[number];

export async function findListingDetails(executor: Executor, id: string): Promise<ListingDetailRow | undefined> {
  const [row] = await selectListingDetails(executor).where(and(eq(listings.id, id), notTrashed)).limit(1);
  return row;
}

export async function findListing(executor: Executor, id: string): Promise<ShopListingRow | undefined> {
  const [row] = await executor.select(listingColumns).from(listings).where(and(eq(listings.id, id), notTrashed)).limit(1);
  return row && inShop(row);
}

/** A listing with its category's attribute rules, as posting it to the channel needs them. */
export async function findListingWithRules(executor: Executor, id: string) {
  const [row] = await executor
    .select({
      id: listings.id,
      agentId: listings.agentId,
      title: listings.title,
      description: listings.description,
      price: listings.price,
      status: listings.status,
      attributes: listings.attributes,
      customTelegramCaption: listings.customTelegramCaption,
      images: listings.images,
      schemaRules: categories.schemaRules,
    })
    .from(listings)
    .innerJoin(categories, eq(categories.id, listings.categoryId))
    .where(and(eq(listings.id, id), notTrashed))
    .limit(1);
  return row;
}

export type ListingWithRules = NonNullable<Awaited<ReturnType<typeof findListingWithRules>>>;

/**
 * Reads the listing (out of the trash) and locks it until the transaction ends, so concurrent
 * writes to it queue up; one moved to the trash meanwhile is not found.
 */
export async function lockListing(executor: Executor, id: string): Promise<ShopListingRow | undefined> {
  const [row] = await executor.select(listingColumns).from(listings).where(and(eq(listings.id, id), notTrashed)).for('update').limit(1);
  return row && inShop(row);
}

/** As lockListing(), in the trash or out of it: for the writes that move a listing in or out. */
export async function lockListingInOrOutOfTrash(executor: Executor, id: string): Promise<ListingRow | undefined> {
  const [row] = await executor.select(listingColumns).from(listings).where(eq(listings.id, id)).for('update').limit(1);
  return row;
}

/**
 * Whether the listing is in the shop or in the trash (undefined when it is gone), share-locked
 * until the transaction ends: a move to the trash or a removal waits for this transaction, or
 * this read waits for theirs and sees what they did.
 */
export async function shareLockListing(executor: Executor, id: string): Promise<{ trashed: boolean } | undefined> {
  const [row] = await executor.select({ deletedAt: listings.deletedAt }).from(listings).where(eq(listings.id, id)).for('share').limit(1);
  return row && { trashed: row.deletedAt !== null };
}

/**
 * Which of `refs` a listing already holds. Each ref is locked until the transaction ends first, so
 * two writes naming the same directly uploaded image cannot both take it.
 */
export async function imagesInUse(tx: Executor, refs: readonly string[]): Promise<string[]> {
  if (refs.length === 0) return [];
  // One statement takes every lock, in a fixed order, so two writes naming the same images cannot deadlock.
  const named = sql`array[${sql.join(
    refs.map((ref) => sql`${ref}`),
    sql`, `,
  )}]::text[]`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(ref, 0)) from (select ref from unnest(${named}) as ref order by ref) as sorted`);
  const holders = await tx.select({ images: listings.images }).from(listings).where(arrayOverlaps(listings.images, [...refs]));
  return refs.filter((ref) => holders.some((holder) => holder.images.includes(ref)));
}

/** The filters of the listings list, without its paging: the export takes the same. */
export type ListingFilters = Omit<ListingListQuery, 'page' | 'limit'>;

/**
 * The list's filters, each as its own condition: the one way they are built, whether a read checks
 * them all on each row (listingsMatching()) or serves status and category from an index
 * (listSearch()). Price, place and text no index of the list serves.
 */
function filterConditionsOf(filters: ListingFilters): { byStatus: SQL | undefined; byCategory: SQL | undefined; rowFilters: SQL[] } {
  return {
    byStatus: filters.status === undefined ? undefined : eq(listings.status, filters.status),
    byCategory: filters.categoryId === undefined ? undefined : eq(listings.categoryId, filters.categoryId),
    rowFilters: [
      filters.minPrice === undefined ? undefined : gte(listings.price, filters.minPrice),
      filters.maxPrice === undefined ? undefined : lte(listings.price, filters.maxPrice),
      filters.city === undefined ? undefined : sql`lower(${listings.city}) = lower(${filters.city})`,
      filters.neighborhood === undefined ? undefined : sql`lower(${listings.neighborhood}) = lower(${filters.neighborhood})`,
      filters.search === undefined ? undefined : textMatches(filters.search),
    ].filter((condition) => condition !== undefined),
  };
}

/**
 * Every listing the list's filters match, as one condition: those in the shop, or with `trashed`
 * those in the trash, as the list answers them; `agentId` limits it to one agent's listings. For
 * the reads that check each row: the trash (few listings) and the export (every match anyway).
 */
export function listingsMatching(filters: ListingFilters, agentId: string | undefined): SQL {
  const { byStatus, byCategory, rowFilters } = filterConditionsOf(filters);
  return and(
    filters.trashed ? isNotNull(listings.deletedAt) : notTrashed,
    agentId === undefined ? undefined : eq(listings.agentId, agentId),
    byStatus,
    byCategory,
    ...rowFilters,
  )!;
}

/**
 * A newest-first search over listings, split as newestFirstPage() reads it: what an index serves in
 * order, what is checked per row, and what the kept totals count.
 */
function listSearch(executor: Executor, filters: ListingListQuery, agentId: string | undefined): Omit<NewestFirstSearch, 'offset' | 'limit' | 'counted' | 'indexOnly'> {
  const { status, categoryId } = filters;
  const { byStatus, byCategory, rowFilters } = filterConditionsOf(filters);

  if (agentId !== undefined) {
    // An agent's own listings, from their index; status and category are checked per row.
    const checked = and(byStatus, byCategory, ...rowFilters);
    return {
      indexed: eq(listings.agentId, agentId),
      indexedCount: () => countAgentListings(executor, agentId),
      checked,
      keptTotal: categoryId === undefined && rowFilters.length === 0 ? () => countAgentListings(executor, agentId, status) : undefined,
    };
  }
  // A category's listings of one status come from their own index; a category over every status
  // is checked on the newest-first walk, where it is common enough.
  const indexed = byStatus && byCategory ? and(byStatus, byCategory) : byStatus;
  const checked = and(byStatus && byCategory ? undefined : byCategory, ...rowFilters);
  return {
    indexed,
    indexedCount: () => countListings(executor, { status, categoryId: byStatus && byCategory ? categoryId : undefined }),
    checked,
    keptTotal: rowFilters.length === 0 ? () => countListings(executor, { status, categoryId }) : undefined,
  };
}

/** A dynamic select of listings with their category and agent, for newestFirstPage(). */
function listingDetailRows(source: Pick<Executor, 'select'>) {
  return source
    .select(listingDetailColumns)
    .from(listings)
    .leftJoin(categories, eq(categories.id, listings.categoryId))
    .leftJoin(users, eq(users.id, listings.agentId))
    .$dynamic();
}

/** One page of the search among the listings out of the trash, newest first, and how many match (exact below 10,000, from there 10,000 flagged as not exact). */
export function pageOfListingDetails(
  executor: Executor,
  search: Omit<NewestFirstSearch, 'offset' | 'limit' | 'counted' | 'indexOnly'>,
  page: PageQuery,
): Promise<{ rows: ListingDetailRow[]; total?: MatchedTotal }> {
  const inShop = { ...search, ...outOfTrash(search.indexed) };
  return newestFirstPage(executor, { ...inShop, offset: offsetOf(page), limit: page.limit, counted: true }, listingDetailRows);
}

/** One page of listings matching the filters; `agentId` limits it to one agent's listings. */
export async function listListingDetails(
  executor: Executor,
  filters: ListingListQuery,
  agentId: string | undefined,
): Promise<{ rows: ListingDetailRow[]; total: MatchedTotal }> {
  const { rows, total } = await pageOfListingDetails(executor, listSearch(executor, filters, agentId), filters);
  return { rows, total: total! };
}

/** Counts a detail view atomically and returns the new count, or undefined when the listing is gone. */
export async function incrementViews(executor: Executor, id: string): Promise<number | undefined> {
  const [row] = await executor
    .update(listings)
    .set({ viewsCount: sql`${listings.viewsCount} + 1` })
    .where(and(eq(listings.id, id), notTrashed))
    .returning({ viewsCount: listings.viewsCount });
  return row?.viewsCount;
}

export async function findAgentSummary(executor: Executor, id: string): Promise<AgentSummary | undefined> {
  const [row] = await executor.select({ id: users.id, name: users.name, phone: users.phone }).from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function insertListing(executor: Executor, values: NewListing & { categoryId: string }): Promise<ShopListingRow> {
  const [row] = await executor.insert(listings).values(values).returning(listingColumns);
  return inShop(row!);
}

/** Updates a listing in the shop (out of the trash). */
export async function updateListingRow(executor: Executor, id: string, changes: ListingChanges): Promise<ShopListingRow | undefined> {
  const [row] = await executor.update(listings).set(changes).where(and(eq(listings.id, id), notTrashed)).returning(listingColumns);
  return row && inShop(row);
}

/**
 * A sale, as one atomic statement on the row's current value: stock goes down by one, never below
 * zero, and the listing is SOLD, or ARCHIVED once no stock is left. `stockBefore` replaces the stored
 * quantity when the same update also sets it.
 */
export function saleChanges(stockBefore: number | undefined): Pick<ListingChanges, 'stockQuantity' | 'status'> {
  const stock = stockBefore === undefined ? sql`${listings.stockQuantity}` : sql`${stockBefore}::int`;
  return {
    stockQuantity: sql`greatest(${stock} - 1, 0)`,
    status: sql`(case when ${stock} - 1 <= 0 then 'ARCHIVED' else 'SOLD' end)::"ListingStatus"`,
  };
}

export async function deleteListingRow(executor: Executor, id: string): Promise<void> {
  await executor.delete(listings).where(eq(listings.id, id));
}
