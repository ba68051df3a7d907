import * as v from 'valibot';
import { PublicProfileView } from '../auth/view.js';
import { RecordId } from '../http/common-views.js';
import { ATTRIBUTES_EXAMPLE } from '../listings/view.js';
import { PhotoView } from '../media/photo-view.js';

const ImageUrl = v.pipe(v.string(), v.url());

/** The storefront's listing item. */
export const PublicListingView = v.pipe(
  v.object({
    id: RecordId,
    title: v.pipe(v.string(), v.examples(['iPhone 15 Pro 256GB, Natural Titanium'])),
    price: v.pipe(v.number(), v.examples([899.99])),
    inStock: v.boolean(),
    stockQuantity: v.pipe(v.number(), v.integer()),
    brand: v.nullable(v.pipe(v.string(), v.examples(['Apple']))),
    category: v.pipe(v.string(), v.description('The category\'s display name.'), v.examples(['Phones'])),
    categoryId: RecordId,
    attributes: v.pipe(v.record(v.string(), v.unknown()), v.examples([ATTRIBUTES_EXAMPLE])),
    tags: v.pipe(v.array(v.string()), v.examples([['brand: Apple', 'storage: 256GB', 'hasWarranty: true']])),
    hero: v.nullable(ImageUrl),
    gallery: v.array(ImageUrl),
    heroPhoto: v.nullable(PhotoView),
    photos: v.array(PhotoView),
    description: v.string(),
    features: v.pipe(v.array(v.string()), v.examples([['Brand: Apple', 'Storage: 256GB', 'Has Warranty: Yes']])),
  }),
  v.title('StorefrontListing'),
);

export type PublicListingView = v.InferOutput<typeof PublicListingView>;

export const PublicAgentView = PublicProfileView;

export type PublicAgentView = v.InferOutput<typeof PublicAgentView>;

export const PublicListingDetailView = v.pipe(
  v.object({ ...PublicListingView.entries, agent: v.nullable(PublicAgentView) }),
  v.title('StorefrontListingDetail'),
);

/** A rule of the category with the values a shopper can still pick, and what each would leave. */
const FilterFieldView = v.object({
  field: v.string(),
  type: v.picklist(['string', 'number', 'boolean', 'select']),
  required: v.boolean(),
  options: v.array(v.string()),
  counts: v.pipe(v.record(v.string(), v.pipe(v.number(), v.integer())), v.examples([{ '128GB': 12, '256GB': 30 }])),
  hasMoreOptions: v.optional(v.literal(true)),
});

export const FilterOptionsView = v.record(v.string(), FilterFieldView);

export const FilterOptionsTotals = {
  total: v.pipe(v.number(), v.integer()),
  priceRange: v.object({ min: v.nullable(v.number()), max: v.nullable(v.number()) }),
  countsExact: v.boolean(),
};

export const SuggestionView = v.object({
  text: v.pipe(v.string(), v.examples(['iPhone 15 Pro'])),
  kind: v.picklist(['title', 'brand', 'model', 'category']),
  count: v.pipe(v.number(), v.integer()),
});
