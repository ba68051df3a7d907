import * as v from 'valibot';
import { listingStatusEnum } from '../db/schema.js';
import { pageQuery, QueryBoolean, QueryNumber, Uuid } from '../http/common-schemas.js';
import { DirectUploadResponse } from '../media/direct-upload.js';
import { imageUploadForm, LISTING_IMAGE_LIMITS } from '../media/image-upload-form.js';
import { ATTRIBUTES_EXAMPLE } from './view.js';

export const LISTING_STATUSES = listingStatusEnum.enumValues;
export const MAX_LISTING_IMAGES = LISTING_IMAGE_LIMITS.maxFiles;

const MAX_TITLE_LENGTH = 200;
const MAX_DESCRIPTION_LENGTH = 20_000;
const MAX_CAPTION_LENGTH = 1024;
const MAX_PLACE_LENGTH = 120;
const MAX_IMAGE_REF_LENGTH = 2048;
/** numeric(12,2) */
const MAX_PRICE = 9_999_999_999.99;
const MAX_STOCK = 1_000_000;

/** Files of `images`, processed as they stream in; stored by the handler once the request is valid. */
export const listingImagesForm = imageUploadForm(LISTING_IMAGE_LIMITS);

/** Postgres text cannot hold NUL, so it is refused here rather than failing the write. */
const noNul = v.check<string, string>((value) => !value.includes('\0'), 'must not contain NUL characters');

function text(maxLength: number) {
  return v.pipe(v.string('must be a string'), noNul, v.maxLength(maxLength, `must be at most ${maxLength} characters`));
}

const Title = v.pipe(text(MAX_TITLE_LENGTH), v.trim(), v.nonEmpty('must not be empty'), v.examples(['iPhone 15 Pro 256GB, Natural Titanium']));
const Description = text(MAX_DESCRIPTION_LENGTH);
const Caption = text(MAX_CAPTION_LENGTH);
const Place = v.pipe(text(MAX_PLACE_LENGTH), v.trim());
const Status = v.picklist(LISTING_STATUSES, `must be one of ${LISTING_STATUSES.join(', ')}`);

/** Multipart sends every value as text, so numbers are read from strings as well as JSON numbers. */
function numberFromForm(pattern: RegExp, message: string, example: number) {
  return v.pipe(
    v.union([v.number(), v.string()], message),
    v.examples([example]),
    v.transform((value) => String(value).trim()),
    v.regex(pattern, message),
    v.transform(Number),
  );
}

const Price = v.pipe(
  numberFromForm(/^\d+(\.\d{1,2})?$/, 'must be a non-negative number with at most 2 decimals', 899.99),
  v.maxValue(MAX_PRICE, `must be at most ${MAX_PRICE}`),
);

const StockQuantity = v.pipe(
  numberFromForm(/^\d+$/, 'must be a whole number of at least 0', 3),
  v.maxValue(MAX_STOCK, `must be at most ${MAX_STOCK}`),
);

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** A JSON value that multipart carries as a JSON string, and a JSON body carries as is. */
function jsonField<T>(guard: (value: unknown) => value is T, message: string, example: T) {
  return v.pipe(
    v.unknown(),
    v.examples([example]),
    v.rawTransform<unknown, T>(({ dataset, addIssue, NEVER }) => {
      const value = typeof dataset.value === 'string' ? parseJson(dataset.value) : dataset.value;
      if (guard(value)) return value;
      addIssue({ message });
      return NEVER;
    }),
  );
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Checked against the category's schemaRules by the handler (a 422, not a 400). */
const Attributes = jsonField(isPlainObject, 'must be a JSON object', ATTRIBUTES_EXAMPLE);

const ExistingImages = v.pipe(
  jsonField(isStringArray, 'must be a JSON array of image URLs or paths', ['https://shop.example.com/uploads/3f2b7c1e.webp']),
  v.maxLength(MAX_LISTING_IMAGES, `must list at most ${MAX_LISTING_IMAGES} images`),
  v.check((refs) => refs.every((ref) => ref.length <= MAX_IMAGE_REF_LENGTH), 'must list image URLs or paths'),
  v.check((refs) => new Set(refs).size === refs.length, 'must not list an image twice'),
);

/** Images uploaded straight to the image host: its upload responses, verified by the handler. */
const ImageRefs = v.pipe(
  jsonField((value): value is unknown[] => Array.isArray(value), 'must be a JSON array of the image host\'s upload responses', [
    { public_id: 'brostechnology/listings/3f2b7c1e', version: 1764100000, signature: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4', secure_url: 'https://res.cloudinary.com/demo/image/upload/v1764100000/brostechnology/listings/3f2b7c1e.webp' },
  ]),
  v.array(DirectUploadResponse),
  v.maxLength(MAX_LISTING_IMAGES, `must name at most ${MAX_LISTING_IMAGES} images`),
);

function isBlank(value: unknown): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '');
}

/** A field a form may leave empty: empty (or null) reads as not sent. */
function omittable<S extends v.GenericSchema>(schema: S) {
  return v.optional(
    v.pipe(
      v.unknown(),
      v.transform((value) => (isBlank(value) ? undefined : value)),
      v.optional(schema),
    ),
  );
}

/** An optional text an update may clear: empty (or null) stores null. */
function clearable<S extends v.GenericSchema<unknown, string>>(schema: S) {
  return v.optional(
    v.pipe(
      v.unknown(),
      v.transform((value) => (isBlank(value) ? null : value)),
      v.nullable(schema),
    ),
  );
}

/**
 * Create: every field may arrive empty from a form. The required ones (title, price, categoryId and,
 * for an administrator, agentId) are checked by the handler, so that one message names all that
 * are missing.
 */
export const ListingCreateBody = v.object({
  title: omittable(Title),
  description: omittable(Description),
  price: omittable(Price),
  categoryId: omittable(Uuid),
  agentId: omittable(Uuid),
  status: omittable(Status),
  attributes: omittable(Attributes),
  stockQuantity: omittable(StockQuantity),
  customTelegramCaption: omittable(Caption),
  city: omittable(Place),
  neighborhood: omittable(Place),
  imageRefs: omittable(ImageRefs),
});

export type ListingCreateBody = v.InferOutput<typeof ListingCreateBody>;

/** Update: every field optional; a field that is sent must be valid. */
export const ListingUpdateBody = v.object({
  title: v.optional(Title),
  description: v.optional(v.pipe(v.unknown(), v.transform((value) => value ?? ''), Description)),
  price: v.optional(Price),
  categoryId: v.optional(Uuid),
  agentId: v.optional(Uuid),
  status: v.optional(Status),
  attributes: v.optional(Attributes),
  stockQuantity: v.optional(StockQuantity),
  customTelegramCaption: clearable(Caption),
  city: clearable(Place),
  neighborhood: clearable(Place),
  /** The images to keep, in order, each as answered or as stored; new files are appended after them. */
  existingImages: v.optional(ExistingImages),
  /** Images uploaded directly to the image host, appended after the new files. */
  imageRefs: v.optional(ImageRefs),
});

export type ListingUpdateBody = v.InferOutput<typeof ListingUpdateBody>;

const QueryText = omittable(v.pipe(v.string('must be a single value'), noNul, v.trim(), v.maxLength(200, 'must be at most 200 characters')));
const QueryPrice = omittable(v.pipe(QueryNumber, v.minValue(0, 'must be at least 0')));

export const ListingListQuery = v.object({
  ...pageQuery(),
  /** The caller's listings in the trash instead (an administrator's: all of them), newest deletion first. */
  trashed: v.optional(v.pipe(QueryBoolean, v.description('true: the listings in the trash, newest deletion first, with `deletedAt`.')), 'false'),
  status: omittable(Status),
  categoryId: omittable(Uuid),
  minPrice: QueryPrice,
  maxPrice: QueryPrice,
  search: QueryText,
  city: QueryText,
  neighborhood: QueryText,
});

export type ListingListQuery = v.InferOutput<typeof ListingListQuery>;

/** `DELETE /api/listings/:id`: to the trash, or (`permanent=true`) removed for good with its images. */
export const ListingDeleteQuery = v.object({
  permanent: v.optional(
    v.pipe(QueryBoolean, v.description('true: removed for good with its images (an administrator, or the agent of a listing in the trash); a listing not in the trash passes through it first.')),
    'false',
  ),
});

export type ListingDeleteQuery = v.InferOutput<typeof ListingDeleteQuery>;

/**
 * The export takes the list's filters, by the same names, `trashed` included; it is the whole
 * list, so it has no pages, and newest first whether it is of the shop or of the trash.
 */
export const ListingExportQuery = v.object({
  ...v.omit(ListingListQuery, ['page', 'limit', 'trashed']).entries,
  trashed: v.optional(v.pipe(QueryBoolean, v.description('true: the listings in the trash instead (the list\'s `trashed=true`), newest first as every export.')), 'false'),
});

export type ListingExportQuery = v.InferOutput<typeof ListingExportQuery>;

export const ListingImportQuery = v.object({
  dryRun: v.optional(v.pipe(QueryBoolean, v.description('`true`: check the file and answer the report, writing nothing.')), 'false'),
});

export type ListingImportQuery = v.InferOutput<typeof ListingImportQuery>;
