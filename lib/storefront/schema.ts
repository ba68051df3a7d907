import * as v from 'valibot';
import { QueryNumber, queryInteger } from '../http/common-schemas.js';

/** Attributes the public list filters on by whole value, case-insensitively (D20). */
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
  limit: queryInteger(1, 100, 50),
  page: v.optional(v.unwrap(queryInteger(1, 1_000_000, 1))),
});

export type PublicListingsQuery = v.InferOutput<typeof PublicListingsQuery>;

export const InquiryBody = v.object(
  { method: v.picklist(['messenger', 'chat', 'call'], 'must be one of messenger, chat, call') },
  (issue) => (issue.expected === 'Object' ? 'must be a JSON object' : 'is required'),
);

export const FilterOptionsQuery = v.object({ category: QueryText });
