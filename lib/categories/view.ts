import * as v from 'valibot';
import { RecordId, Timestamp } from '../http/common-views.js';

export const SchemaRuleView = v.object({
  field: v.string(),
  type: v.picklist(['string', 'number', 'boolean', 'select']),
  required: v.boolean(),
  options: v.optional(v.array(v.string())),
});

export const CategoryView = v.pipe(
  v.object({
    id: RecordId,
    name: v.pipe(v.string(), v.examples(['PHONES'])),
    displayName: v.pipe(v.string(), v.examples(['Phones'])),
    icon: v.pipe(v.string(), v.examples(['smartphone'])),
    schemaRules: v.pipe(
      v.array(SchemaRuleView),
      v.examples([
        [
          { field: 'brand', type: 'string', required: true },
          { field: 'storage', type: 'select', required: true, options: ['64GB', '128GB', '256GB', '512GB', '1TB'] },
          { field: 'hasWarranty', type: 'boolean', required: false },
        ],
      ]),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    listingCount: v.pipe(v.number(), v.integer()),
    _count: v.object({ listings: v.pipe(v.number(), v.integer()) }),
  }),
  v.title('Category'),
);

export type CategoryView = v.InferOutput<typeof CategoryView>;

/** What seeding the default categories answers. */
export const SeedView = v.object({
  created: v.pipe(v.array(v.string()), v.description('Default names this call created.')),
  existing: v.pipe(v.array(v.string()), v.description('Default names that were there already, left as they were.')),
  categories: v.array(CategoryView),
});

export type SeedView = v.InferOutput<typeof SeedView>;
