import { and, eq, inArray } from 'drizzle-orm/sql/expressions/conditions';
import { sql } from 'drizzle-orm/sql/sql';
import { cappedTotal, type MatchedTotal } from '../db/bounded-total.js';
import type { Executor } from '../db/client.js';
import { listings } from '../db/schema.js';
import { newestFirst, newestFirstPage, newestFirstTotal, type NewestFirstSearch } from '../listings/newest-first.js';
import { notTrashed } from '../listings/queries.js';
import { priceBandPage, priceBandTotal, type PriceBandSearch } from '../listings/price-bands.js';
import { priceOrder, priceOrderedPage } from '../listings/price-ordered.js';
import { postedConditions, postedNewestPageIds, postedTermPageIds, postedTotal, type PostedScope } from '../listings/search-postings.js';
import { relevantFirstPage, relevantPostedPageIds, rowsInOrder } from '../listings/relevant-first.js';
import { relevanceOf } from '../search/word-matches.js';
import { categoryNamed, postedSearchOf, publicPageRows, publicSearch, type PublicListingPageRow } from './queries.js';
import { offsetOf, planStorefrontRead, SERVED_RESULTS, type StorefrontReadPlan, type StorefrontReadPlanName, type StorefrontReadRequest } from './read-plan.js';

interface PageRead {
  rows: PublicListingPageRow[];
  total?: MatchedTotal;
}

/**
 * The storefront's busiest statement, a near page of every available listing (out of the trash) or
 * of one category, newest first, built and planned once per database and shape (with or without a category).
 */
function prepareNearPage(executor: Executor, inCategory: boolean) {
  return publicPageRows(executor)
    .where(and(eq(listings.status, 'AVAILABLE'), inCategory ? eq(listings.categoryId, categoryNamed(sql.placeholder('category'))) : undefined, notTrashed))
    .orderBy(...newestFirst)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(inCategory ? 'public_listings_near_page_in_category' : 'public_listings_near_page');
}

const preparedNearPages = new WeakMap<Executor, Map<boolean, ReturnType<typeof prepareNearPage>>>();

function nearPage(executor: Executor, inCategory: boolean) {
  let byShape = preparedNearPages.get(executor);
  if (!byShape) preparedNearPages.set(executor, (byShape = new Map()));
  let prepared = byShape.get(inCategory);
  if (!prepared) byShape.set(inCategory, (prepared = prepareNearPage(executor, inCategory)));
  return prepared;
}

/** What every executor is given: the request, and its filters split as the page readers take them. */
interface ReadContext {
  executor: Executor;
  request: StorefrontReadRequest;
  search: NewestFirstSearch;
}

/** The request as a price-band read takes it: its category and price range, and the page. */
function priceBandSearchOf(request: StorefrontReadRequest, search: NewestFirstSearch): PriceBandSearch {
  const { category, priceMin, priceMax } = request.filters;
  return { categoryId: category ? categoryNamed(category) : undefined, priceMin, priceMax, offset: search.offset, limit: search.limit, counted: search.counted };
}

/** What narrows each of the request's posted conditions: its price range and its category. */
function postedScopeOf({ filters }: StorefrontReadRequest): PostedScope {
  return { priceMin: filters.priceMin, priceMax: filters.priceMax, categoryId: filters.category === undefined ? undefined : categoryNamed(filters.category) };
}

/**
 * The total of a search that is not read by price bands: counted from its postings when they are
 * few enough to merge (planStorefrontRead() decides), otherwise as its newest-first list's first page gives it.
 */
function totalOf(source: 'postings' | 'walked' | 'kept', { executor, request, search }: ReadContext): Promise<MatchedTotal> {
  return source === 'postings' ? postedTotal(executor, request.posted!.conditions, postedScopeOf(request)) : newestFirstTotal(executor, search);
}

/**
 * A page of a postings plan with its total. Counted from the postings, the two are read side by
 * side. Counted as a walk's (postings too many to merge, so a deep page), the total comes first:
 * when it is exact, the matches are fewer than the served results, and a page past them is
 * answered without merging postings that rarely meet.
 */
async function postedPage(source: 'postings' | 'walked', context: ReadContext, readPage: () => Promise<PublicListingPageRow[]>): Promise<PageRead> {
  if (!context.search.counted) return { rows: await readPage() };
  if (source === 'postings') {
    const [rows, total] = await Promise.all([readPage(), totalOf(source, context)]);
    return { rows, total };
  }
  const total = await totalOf(source, context);
  if (total.exact && context.search.offset >= total.total) return { rows: [], total };
  return { rows: await readPage(), total };
}

type Executors = { [Name in StorefrontReadPlanName]: (plan: Extract<StorefrontReadPlan, { name: Name }>, context: ReadContext) => Promise<PageRead> };

/** One executor per plan; see planStorefrontRead() for when each is chosen. */
const executors: Executors = {
  'no-match': async (_plan, { search }) => ({ rows: [], total: search.counted ? { total: 0, exact: true } : undefined }),
  'past-served': async (plan, context) => {
    const { executor, request, search } = context;
    if (!search.counted) return { rows: [] };
    if (plan.total === 'price-bands') return { rows: [], total: await priceBandTotal(executor, priceBandSearchOf(request, search)) };
    return { rows: [], total: await totalOf(plan.total, context) };
  },
  'near-page': async (plan, { executor, request, search }) => {
    const [rows, total] = await Promise.all([
      nearPage(executor, plan.inCategory).execute({ category: request.filters.category, limit: search.limit, offset: search.offset }),
      search.counted ? search.indexedCount() : undefined,
    ]);
    return { rows, total: total === undefined ? undefined : { total, exact: true } };
  },
  'deferred-page': (_plan, { executor, search }) => newestFirstPage(executor, search, publicPageRows),
  'price-bands': (_plan, { executor, request, search }) => priceBandPage(executor, priceBandSearchOf(request, search), publicPageRows),
  'newest-postings': (plan, context) =>
    postedPage(plan.total, context, async () =>
      publicPageRows(context.executor)
        .where(inArray(listings.id, postedNewestPageIds(plan.conditions, postedScopeOf(context.request), context.search.offset, context.search.limit)))
        .orderBy(...newestFirst),
    ),
  'newest-walk': (_plan, { executor, search }) => newestFirstPage(executor, search, publicPageRows),
  'price-index': (plan, { executor, search }) => priceOrderedPage(executor, search, plan.direction, publicPageRows, []),
  'price-postings': async (plan, { executor, search }) => {
    const [rows, total] = await Promise.all([
      publicPageRows(executor)
        .where(inArray(listings.id, postedTermPageIds(plan.term, plan.direction, search.offset, search.limit)))
        .orderBy(...priceOrder(plan.direction)),
      search.counted ? newestFirstTotal(executor, search) : undefined,
    ]);
    return { rows, total };
  },
  'price-sources': async (plan, { executor, request, search }) =>
    priceOrderedPage(executor, search, plan.direction, publicPageRows, await postedConditions(executor, postedSearchOf(request.filters))),
  'relevant-postings': (plan, context) =>
    postedPage(plan.total, context, async () => {
      const { executor, request, search } = context;
      const matchIds = (offset: number, limit: number) => postedNewestPageIds(plan.conditions, postedScopeOf(request), offset, limit);
      return rowsInOrder(executor, await relevantPostedPageIds(executor, search, relevanceOf(request.filters.search!), matchIds), publicPageRows);
    }),
  'relevant-first': (_plan, { executor, request, search }) => relevantFirstPage(executor, search, relevanceOf(request.filters.search!), publicPageRows),
};

function execute<Name extends StorefrontReadPlanName>(plan: Extract<StorefrontReadPlan, { name: Name }>, context: ReadContext): Promise<PageRead> {
  return (executors[plan.name] as (plan: StorefrontReadPlan, context: ReadContext) => Promise<PageRead>)(plan, context);
}

/**
 * Available listings matching the filters in the order asked for, among the first SERVED_RESULTS,
 * and (with a page) how many match: exact below EXACT_TOTAL_LIMIT, and from there that limit,
 * flagged as not exact (see cappedTotal()). With the name of the plan that read them.
 */
export async function findPublicListings(
  executor: Executor,
  request: StorefrontReadRequest,
): Promise<PageRead & { plan: StorefrontReadPlanName }> {
  const plan = planStorefrontRead(request);
  const offset = offsetOf(request);
  const search: NewestFirstSearch = {
    ...publicSearch(executor, request.filters),
    offset,
    limit: Math.min(request.limit, SERVED_RESULTS - offset),
    counted: request.page !== undefined,
  };
  const { rows, total } = await execute(plan, { executor, request, search });
  return { rows, total: total === undefined ? undefined : cappedTotal(total.total), plan: plan.name };
}
