import { and, arrayOverlaps, count, desc, eq, getTableColumns, gte, ilike, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { categories, listings, users } from '../db/schema.js';
import { offsetOf, type PageQuery } from '../http/common-schemas.js';
import type { ListingListQuery } from './schema.js';

export type ListingRow = typeof listings.$inferSelect;
export type NewListing = typeof listings.$inferInsert;
/** Column changes of an update; `stockQuantity` and `status` may be SQL computed from the row itself. */
export type ListingChanges = { [K in keyof NewListing]?: NewListing[K] | SQL };

export interface AgentSummary {
  id: string;
  name: string;
  phone: string;
}

/** A listing with the summary of its category and agent, as every listing response carries them. */
const listingDetailColumns = {
  ...getTableColumns(listings),
  category: { id: categories.id, name: categories.name, displayName: categories.displayName, icon: categories.icon },
  agent: { id: users.id, name: users.name, phone: users.phone },
};

/**
 * Listings joined to their category and agent (null when the agent is gone), in one query. A
 * dynamic builder: callers add their own where, order and paging.
 */
export function selectListingDetails(executor: Executor) {
  return executor
    .select(listingDetailColumns)
    .from(listings)
    .innerJoin(categories, eq(categories.id, listings.categoryId))
    .leftJoin(users, eq(users.id, listings.agentId))
    .$dynamic();
}

export type ListingDetailRow = Awaited<ReturnType<typeof selectListingDetails>>[number];

export async function findListingDetails(executor: Executor, id: string): Promise<ListingDetailRow | undefined> {
  const [row] = await selectListingDetails(executor).where(eq(listings.id, id)).limit(1);
  return row;
}

export async function findListing(executor: Executor, id: string): Promise<ListingRow | undefined> {
  const [row] = await executor.select().from(listings).where(eq(listings.id, id)).limit(1);
  return row;
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
    .where(eq(listings.id, id))
    .limit(1);
  return row;
}

export type ListingWithRules = NonNullable<Awaited<ReturnType<typeof findListingWithRules>>>;

/** Reads the listing and locks it until the transaction ends, so concurrent writes to it queue up. */
export async function lockListing(executor: Executor, id: string): Promise<ListingRow | undefined> {
  const [row] = await executor.select().from(listings).where(eq(listings.id, id)).for('update').limit(1);
  return row;
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

/** A substring pattern for ILIKE in which the caller's `%`, `_` and `\` match themselves. */
function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, '\\$&')}%`;
}

function listConditions(filters: ListingListQuery, agentId: string | undefined): SQL | undefined {
  const conditions: Array<SQL | undefined> = [
    agentId === undefined ? undefined : eq(listings.agentId, agentId),
    filters.status === undefined ? undefined : eq(listings.status, filters.status),
    filters.categoryId === undefined ? undefined : eq(listings.categoryId, filters.categoryId),
    filters.minPrice === undefined ? undefined : gte(listings.price, filters.minPrice),
    filters.maxPrice === undefined ? undefined : lte(listings.price, filters.maxPrice),
    filters.city === undefined ? undefined : sql`lower(${listings.city}) = lower(${filters.city})`,
    filters.neighborhood === undefined ? undefined : sql`lower(${listings.neighborhood}) = lower(${filters.neighborhood})`,
  ];
  if (filters.search !== undefined) {
    const pattern = containsPattern(filters.search);
    conditions.push(or(ilike(listings.title, pattern), ilike(listings.description, pattern)));
  }
  return and(...conditions);
}

/**
 * One page of the listings matching `where`, newest first (read in the order of the
 * `("createdAt" DESC, id DESC)` indexes), and how many match: two statements run together.
 */
export async function pageOfListingDetails(
  executor: Executor,
  where: SQL | undefined,
  page: PageQuery,
): Promise<{ rows: ListingDetailRow[]; total: number }> {
  const [rows, [counted]] = await Promise.all([
    selectListingDetails(executor)
      .where(where)
      .orderBy(desc(listings.createdAt), desc(listings.id))
      .limit(page.limit)
      .offset(offsetOf(page)),
    executor.select({ total: count() }).from(listings).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

/** One page of listings matching the filters; `agentId` limits it to one agent's listings. */
export function listListingDetails(
  executor: Executor,
  filters: ListingListQuery,
  agentId: string | undefined,
): Promise<{ rows: ListingDetailRow[]; total: number }> {
  return pageOfListingDetails(executor, listConditions(filters, agentId), filters);
}

/** Counts a detail view atomically and returns the new count, or undefined when the listing is gone. */
export async function incrementViews(executor: Executor, id: string): Promise<number | undefined> {
  const [row] = await executor
    .update(listings)
    .set({ viewsCount: sql`${listings.viewsCount} + 1` })
    .where(eq(listings.id, id))
    .returning({ viewsCount: listings.viewsCount });
  return row?.viewsCount;
}

export async function findAgentSummary(executor: Executor, id: string): Promise<AgentSummary | undefined> {
  const [row] = await executor.select({ id: users.id, name: users.name, phone: users.phone }).from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function insertListing(executor: Executor, values: NewListing): Promise<ListingRow> {
  const [row] = await executor.insert(listings).values(values).returning();
  return row!;
}

export async function updateListingRow(executor: Executor, id: string, changes: ListingChanges): Promise<ListingRow | undefined> {
  const [row] = await executor.update(listings).set(changes).where(eq(listings.id, id)).returning();
  return row;
}

/**
 * The D12 sale, as one statement on the row's current value: stock goes down by one, never below
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
