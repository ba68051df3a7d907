import { categoryRulesOf } from '../categories/rules-cache.js';
import { getDb, type Executor } from '../db/client.js';
import { notFoundError } from '../http/api-error.js';
import { nameReadPlan } from '../http/request-timing.js';
import { findPhotoRecords, photoRecordsByRef } from '../media/photo-records.js';
import type { IdParams } from '../http/common-schemas.js';
import { acknowledged, headOk, ok, paginated, pagination, type AcknowledgementReply, type DataReply, type PageReply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import type { Input } from '../http/endpoint-input.js';
import { enforceRateLimits } from '../rate-limit/enforce-rate-limit.js';
import { findSuggestions } from './suggestions.js';
import { expandSearch } from './word-expansion.js';
import { findFacetCounts } from './facet-counts.js';
import { findPublicListings } from './list-reads.js';
import { filterOptionsPresenter } from './filter-options.js';
import { publicAgentPresenter, publicListingPresenter } from './presenter.js';
import { SERVED_RESULTS } from './read-plan.js';
import {
  categoryIdNamed,
  countInquiry,
  findCategoryFilterValues,
  publicListingExists,
  viewPublicListing,
  type PublicListingFilters,
} from './queries.js';
import { ATTRIBUTE_FILTERS, type FilterOptionsQuery, type InquiryBody, type PublicListingsQuery, type SuggestQuery } from './schema.js';
import type * as v from 'valibot';
import type { BesideOutputs } from '../http/success-answer.js';
import type { FilterOptionsTotals, FilterOptionsView, PublicListingDetailView, PublicListingView, SuggestionView } from './view.js';

/**
 * Reads the query into filters; an empty value filters nothing, and the older names are aliases
 * of the current ones. The search text's words are expanded to the shop's words, and the category
 * named is looked up, side by side.
 */
async function filtersOf(executor: Executor, query: FilterOptionsQuery): Promise<PublicListingFilters> {
  const attributes = ATTRIBUTE_FILTERS.flatMap((name): Array<[string, string]> => {
    const value = query[name];
    return value ? [[name, value]] : [];
  });
  const amenities = (query.amenities ?? '')
    .split(',')
    .map((amenity) => amenity.trim().toLowerCase())
    .filter(Boolean);
  const text = query.q || query.search;
  const category = query.category || undefined;
  const [search, categoryId] = await Promise.all([
    text ? expandSearch(executor, text) : undefined,
    category === undefined ? undefined : categoryIdNamed(executor, category),
  ]);
  return {
    category,
    categoryId,
    search,
    priceMin: query.priceMin ?? query.minPrice,
    priceMax: query.priceMax ?? query.maxPrice,
    attributes,
    amenities,
  };
}

export async function listPublicListings({ query }: Input<{ query: typeof PublicListingsQuery }>): Promise<PageReply<PublicListingView> | DataReply<PublicListingView[]>> {
  const db = await getDb();
  const filters = await filtersOf(db, query);
  const order = query.sort ?? (filters.search ? 'relevance' : 'newest');
  const { rows, total, plan } = await findPublicListings(db, { filters, order, limit: query.limit, page: query.page });
  nameReadPlan(plan);
  const [rules, photos] = await Promise.all([categoryRulesOf(db, rows), findPhotoRecords(db, rows.flatMap((row) => row.images))]);
  const items = rows.map((row) => publicListingPresenter({ ...row, categoryRules: rules.get(row.categoryId)! }, photos));
  if (query.page === undefined || total === undefined) return ok(items);
  return paginated(items, pagination(query.page, query.limit, total, SERVED_RESULTS));
}

/** A view is counted by GET only: HEAD (link checkers, previews) answers whether it exists. */
export async function getPublicListing({ params }: Input<{ params: typeof IdParams }>, ctx: RequestContext<'public'>): Promise<DataReply<v.InferOutput<typeof PublicListingDetailView>>> {
  const db = await getDb();
  if (ctx.request.method.toUpperCase() === 'HEAD') {
    if (!(await publicListingExists(db, params.id))) throw notFoundError('Listing', params.id);
    return headOk();
  }
  const found = await viewPublicListing(db, params.id);
  if (!found) throw notFoundError('Listing', params.id);
  const photos = photoRecordsByRef(found.photoRecords);
  return ok({ ...publicListingPresenter(found.listing, photos), agent: found.agent ? publicAgentPresenter(found.agent) : null });
}

/** Inquiries are limited per client address per listing. */
export const INQUIRY_LIMIT = { limit: 30, windowSeconds: 60 };
/**
 * Inquiries per client address across every listing, counted first: an address naming one listing
 * after another (or ids that name none) adds at most this many counters a minute.
 */
const INQUIRY_ADDRESS_LIMIT = { limit: 60, windowSeconds: 60 };

/** The inquiry endpoint's rate limits, per address and per listing and address, counted before the click is. */
export const limitInquiries = ({ params }: Input<{ params: typeof IdParams }>, ctx: RequestContext): Promise<void> =>
  enforceRateLimits(
    { key: `inquiry-address:${ctx.clientNetwork}`, ...INQUIRY_ADDRESS_LIMIT },
    { key: `inquiry:${params.id}:${ctx.clientNetwork}`, ...INQUIRY_LIMIT },
  );

export async function recordInquiry({ params }: Input<{ params: typeof IdParams; body: typeof InquiryBody }>): Promise<AcknowledgementReply> {
  const db = await getDb();
  if (!(await countInquiry(db, params.id))) throw notFoundError('Listing', params.id);
  return acknowledged();
}

/** A category's filter options with their counts, and the total and price range of the filtered list; no category, no options. */
export async function getFilterOptions({ query }: Input<{ query: typeof FilterOptionsQuery }>): Promise<DataReply<v.InferOutput<typeof FilterOptionsView>, BesideOutputs<typeof FilterOptionsTotals>>> {
  const db = await getDb();
  const filters = await filtersOf(db, query);
  const found = query.category ? await findCategoryFilterValues(db, query.category) : undefined;
  const facets = await findFacetCounts(db, filters, found?.schemaRules.map((rule) => rule.field) ?? []);
  for (const plan of facets.plans) nameReadPlan(plan);
  return ok(found ? filterOptionsPresenter(found, facets.counts) : {}, {
    total: facets.total,
    priceRange: facets.priceRange,
    countsExact: facets.exact,
  });
}

export async function suggest({ query }: Input<{ query: typeof SuggestQuery }>): Promise<DataReply<v.InferOutput<typeof SuggestionView>[]>> {
  return ok(await findSuggestions(await getDb(), query.q));
}
