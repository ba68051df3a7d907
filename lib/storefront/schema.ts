import * as v from 'valibot';
import { QueryNumber, queryInteger, queryLimit } from '../http/common-schemas.js';

/** Attributes the public list filters on by whole value, case-insensitively. */
export const ATTRIBUTE_FILTERS = [
  'brand',
  'condition',
  'storage',
  'ram',
  'color',
  'processor',
  'screenSize',
  'os',
  'model',
  'connectivity',
  'caseSize',
  'beds',
  'baths',
] as const;

export type AttributeFilter = (typeof ATTRIBUTE_FILTERS)[number];

const MAX_FILTER_LENGTH = 200;

const QueryText = v.optional(
  v.pipe(
    v.string('must be a single value'),
    v.trim(),
    v.maxLength(MAX_FILTER_LENGTH, `must be at most ${MAX_FILTER_LENGTH} characters`),
  ),
);

const QueryPrice = v.optional(v.pipe(QueryNumber, v.minValue(0, 'must be at least 0')));

const attributeFilterEntries = Object.fromEntries(ATTRIBUTE_FILTERS.map((name) => [name, QueryText])) as Record<
  AttributeFilter,
  typeof QueryText
>;

/** Orders of the storefront list; relevance only ranks when there is a `q`, and is then the default. */
export const PUBLIC_LISTING_ORDERS = ['relevance', 'newest', 'price_asc', 'price_desc'] as const;

export type PublicListingOrder = (typeof PUBLIC_LISTING_ORDERS)[number];

export const PublicListingsQuery = v.object({
  category: QueryText,
  q: QueryText,
  search: QueryText,
  priceMin: QueryPrice,
  priceMax: QueryPrice,
  minPrice: QueryPrice,
  maxPrice: QueryPrice,
  amenities: v.optional(v.pipe(v.string('must be a single value'), v.maxLength(1000, 'must be at most 1000 characters'))),
  ...attributeFilterEntries,
  sort: v.optional(
    v.pipe(
      v.picklist(PUBLIC_LISTING_ORDERS, `must be one of ${PUBLIC_LISTING_ORDERS.join(', ')}`),
      v.description('relevance (the default with `q`; rules in the operation\'s description), newest (the default without `q`), price_asc or price_desc; newest first among equals.'),
    ),
  ),
  limit: queryLimit(100, 50),
  page: v.optional(v.unwrap(queryInteger(1, 1_000_000, 1))),
});

export type PublicListingsQuery = v.InferOutput<typeof PublicListingsQuery>;

/** The original service's names for the same methods, for its storefront (deprecated). */
const INQUIRY_METHOD_ALIASES: Readonly<Record<string, 'messenger' | 'chat'>> = { telegram: 'messenger', whatsapp: 'chat' };

export const InquiryBody = v.object(
  {
    method: v.pipe(
      v.picklist(['messenger', 'chat', 'call', 'telegram', 'whatsapp'], 'must be one of messenger, chat, call'),
      v.description('messenger, chat or call. Deprecated: telegram (use messenger) and whatsapp (use chat), the original service\'s names.'),
      v.transform((method) => INQUIRY_METHOD_ALIASES[method] ?? method),
    ),
  },
  (issue) => (issue.expected === 'Object' ? 'must be a JSON object' : 'is required'),
);

/** The list's filters, without its order and paging. */
export const FilterOptionsQuery = v.omit(PublicListingsQuery, ['sort', 'limit', 'page']);

export type FilterOptionsQuery = v.InferOutput<typeof FilterOptionsQuery>;

/** A prefix of 2 to 100 characters (anything else is a 400). */
export const SuggestQuery = v.object({
  q: v.pipe(
    v.string('is required'),
    v.trim(),
    v.minLength(2, 'must be at least 2 characters'),
    v.maxLength(100, 'must be at most 100 characters'),
  ),
}, 'is required');
