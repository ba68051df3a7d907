import * as v from 'valibot';
import { RecordId, Timestamp } from '../http/common-views.js';
import { PhotoView } from '../media/photo-view.js';

export const LISTING_STATUSES = ['AVAILABLE', 'PENDING', 'SOLD', 'ARCHIVED'] as const;

export const ATTRIBUTES_EXAMPLE = { brand: 'Apple', model: 'iPhone 15 Pro', storage: '256GB', condition: 'Used - Like New', hasWarranty: true };

/** A listing's attributes: the fields its category's rules name, and any others it was given. */
export const AttributesView = v.pipe(v.record(v.string(), v.union([v.string(), v.number(), v.boolean()])), v.examples([ATTRIBUTES_EXAMPLE]));

const ListingCategory = v.object({ id: RecordId, name: v.string(), displayName: v.string(), icon: v.string() });
const ListingAgent = v.object({ id: RecordId, name: v.string(), phone: v.string() });

/** The listing's fields, as every listing answer shows them (administrators and agents). */
export const ListingFields = {
  id: RecordId,
  title: v.pipe(v.string(), v.examples(['iPhone 15 Pro 256GB, Natural Titanium'])),
  description: v.nullable(v.pipe(v.string(), v.examples(['Boxed, battery at 96%, one small scratch on the frame.']))),
  price: v.pipe(v.number(), v.examples([899.99])),
  status: v.picklist(LISTING_STATUSES),
  city: v.nullable(v.pipe(v.string(), v.examples(['Addis Ababa']))),
  neighborhood: v.nullable(v.pipe(v.string(), v.examples(['Bole']))),
  images: v.pipe(v.array(v.pipe(v.string(), v.url())), v.description('Absolute URLs, in display order.')),
  photos: v.pipe(v.array(PhotoView), v.description('The same images with their size, placeholder and srcset.')),
  attributes: AttributesView,
  customTelegramCaption: v.nullable(v.string()),
  categoryId: v.pipe(v.nullable(RecordId), v.description('Null only for a listing in the trash whose category was deleted since.')),
  agentId: v.nullable(RecordId),
  viewsCount: v.pipe(v.number(), v.integer()),
  inquiryClicks: v.pipe(v.number(), v.integer()),
  stockQuantity: v.pipe(v.number(), v.integer()),
  commissionPercent: v.nullable(v.number()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deletedAt: v.pipe(v.nullable(Timestamp), v.description('When the listing was moved to the trash; null while it is in the shop.')),
  category: v.pipe(v.nullable(ListingCategory), v.description('Null only for a listing in the trash whose category was deleted since.')),
  removedCategory: v.pipe(
    v.nullable(v.string()),
    v.description('The display name of the category deleted while the listing was in the trash; null otherwise. Such a listing cannot be restored.'),
  ),
  agent: v.nullable(ListingAgent),
};

export const ListingView = v.pipe(v.object(ListingFields), v.title('Listing'));

export type ListingView = v.InferOutput<typeof ListingView>;

const ImportProblem = v.object({
  field: v.pipe(v.string(), v.description('The column at fault: `price`, `attr:storage`, `category`, ...'), v.examples(['price'])),
  message: v.pipe(v.string(), v.description('In the words of the single-listing endpoints.'), v.examples(['must be a non-negative number with at most 2 decimals'])),
  received: v.optional(v.unknown()),
});

const ImportedRow = v.object({
  row: v.pipe(v.number(), v.integer(), v.description('The line of the file the row starts on; the header is line 1.')),
  id: v.optional(v.pipe(v.string(), v.description('The listing: the one the row names, or the one it created.'))),
  status: v.picklist(['created', 'updated', 'failed']),
  errors: v.optional(v.array(ImportProblem)),
});

/** What an import did, or would do (a dry run), row by row. */
export const ImportReportView = v.pipe(
  v.object({
    dryRun: v.pipe(v.boolean(), v.description('True when nothing was written: the counts say what the import would do.')),
    created: v.pipe(v.number(), v.integer()),
    updated: v.pipe(v.number(), v.integer(), v.description('Rows naming a listing of the caller, whether or not they change it.')),
    unchanged: v.pipe(v.number(), v.integer(), v.description('Of the updated rows, those that change nothing: nothing is written for them.')),
    failed: v.pipe(v.number(), v.integer()),
    warnings: v.pipe(v.array(ImportProblem), v.description('Columns the import does not read (an unknown or unnamed column): reported, never a failure.')),
    rows: v.array(ImportedRow),
  }),
  v.title('ImportReport'),
);

export type ImportReportView = v.InferOutput<typeof ImportReportView>;
