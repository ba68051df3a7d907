import * as v from 'valibot';
import type { CategoryRow } from '../../categories/queries.js';
import type { ListingAttributes } from '../../db/schema.js';
import type { AuthUser } from '../../http/access.js';
import { ApiError, type ErrorDetail } from '../../http/api-error.js';
import { Uuid } from '../../http/common-schemas.js';
import { issuesToDetails } from '../../http/validation.js';
import { validateAttributes } from '../attributes.js';
import { retainedImages } from '../retained-images.js';
import { inShop, type ListingRow, type ShopListingRow } from '../queries.js';
import { ListingCreateBody } from '../schema.js';
import { attributeColumn, type ImportColumn } from './columns.js';
import { categoryKey, emailKey, type ImportContext } from './import-context.js';
import type { ImportLayout } from './import-layout.js';
import type { FileRow } from './read-file.js';

/** The listing columns an import sets: the fields of the file, as a listing stores them. */
export type ImportedFields = Pick<ShopListingRow, 'title' | 'description' | 'price' | 'status' | 'stockQuantity' | 'categoryId' | 'agentId' | 'attributes' | 'images'>;

/** What one row of the file comes to. */
export type RowPlan =
  | { row: number; kind: 'create'; values: ImportedFields }
  | { row: number; kind: 'update'; before: ShopListingRow; after: ImportedFields; changed: boolean; droppedImages: string[] }
  | { row: number; kind: 'failed'; id?: string; errors: ErrorDetail[] };

/** The cells of one row, by column; a column the file does not have reads as undefined, a missing cell as empty. */
interface RowCells {
  of: (column: ImportColumn) => string | undefined;
  attributes: Array<{ field: string; value: string }>;
}

function rowCells(row: FileRow, layout: ImportLayout): RowCells {
  const cell = (index: number) => row.cells[index] ?? '';
  return {
    of: (column) => (layout.at[column] === undefined ? undefined : cell(layout.at[column])),
    attributes: layout.attributes.map(({ field, index }) => ({ field, value: cell(index) })),
  };
}

const isBlank = (value: string | undefined): value is undefined | '' => value === undefined || value.trim() === '';

/** Cells past the header's last column must be empty: a value there means the row's cells have shifted. */
function strayCells(row: FileRow, layout: ImportLayout): ErrorDetail[] {
  return row.cells.flatMap((cell, index) =>
    index >= layout.width && cell.trim() !== '' ? [{ field: `column ${index + 1}`, message: 'is past the last named column (an unquoted comma?)' }] : [],
  );
}

/** The fields the single-listing endpoints validate, by the same rules and in the same words; an empty cell reads as not given. */
function listingFields(cells: RowCells, errors: ErrorDetail[]) {
  const given = Object.fromEntries(
    (['title', 'description', 'price', 'status', 'stockQuantity'] as const).flatMap((column) => {
      const value = cells.of(column);
      return value === undefined ? [] : [[column, value]];
    }),
  );
  const parsed = v.safeParse(ListingCreateBody, given);
  if (parsed.success) return parsed.output;
  errors.push(...issuesToDetails(parsed.issues));
  return undefined;
}

/** The category a cell names: by display name (ignoring case), or by code where no display name matches or several do. */
function categoryNamed(name: string, context: ImportContext, errors: ErrorDetail[]): CategoryRow | undefined {
  const byDisplayName = context.categoriesByDisplayName.get(categoryKey(name)) ?? [];
  const found = byDisplayName.length === 1 ? byDisplayName[0] : context.categoriesByCode.get(categoryKey(name));
  if (found) return found;
  errors.push({
    field: 'category',
    message: byDisplayName.length > 1 ? `Category "${name.trim()}" names more than one category: use its code` : `Category "${name.trim()}" not found`,
    received: name,
  });
  return undefined;
}

/** The owner an `agentEmail` cell names: an agent may name only itself, as it may create only its own listings. */
function ownerNamed(email: string, caller: AuthUser, context: ImportContext, errors: ErrorDetail[]): string | undefined {
  const wanted = emailKey(email);
  if (caller.role !== 'SUPER_ADMIN') {
    if (wanted === emailKey(caller.email)) return caller.id;
    errors.push({ field: 'agentEmail', message: 'Not authorized', received: email });
    return undefined;
  }
  const id = context.accountsByEmail.get(wanted);
  if (id === undefined) errors.push({ field: 'agentEmail', message: `User with email "${wanted}" not found`, received: email });
  return id;
}

/** A 422 of validateAttributes() as row errors, each naming its `attr:` column. */
function attributeErrors(error: unknown): ErrorDetail[] {
  if (!(error instanceof ApiError) || !error.details) throw error;
  return error.details.map((detail) => ({ ...detail, field: attributeColumn(detail.field) }));
}

function checkedAttributes(rules: CategoryRow['schemaRules'], attributes: Record<string, unknown>, errors: ErrorDetail[]): ListingAttributes | undefined {
  try {
    return validateAttributes(rules, attributes);
  } catch (error) {
    errors.push(...attributeErrors(error));
    return undefined;
  }
}

/** Attribute values compare by field, whatever order the stored object keeps them in. */
function sameAttributes(first: ListingAttributes, second: ListingAttributes): boolean {
  const keys = Object.keys(first);
  return keys.length === Object.keys(second).length && keys.every((key) => Object.hasOwn(second, key) && first[key] === second[key]);
}

/**
 * A listing's attributes after the row: each attribute column's value (an empty cell leaves the
 * field out), and for the category's other fields the value the listing has. Checked against the
 * category's rules, as an update through the listing's endpoint is, when they or the category change.
 */
function updatedAttributes(before: ShopListingRow, category: CategoryRow, cells: RowCells, errors: ErrorDetail[]): ListingAttributes | undefined {
  const asBefore = (field: string, value: string) => (isBlank(value) ? !Object.hasOwn(before.attributes, field) : String(before.attributes[field]) === value);
  if (category.id === before.categoryId && cells.attributes.every(({ field, value }) => asBefore(field, value))) return before.attributes;
  const given = new Set(cells.attributes.map(({ field }) => field));
  const kept = category.schemaRules.filter((rule) => !given.has(rule.field) && Object.hasOwn(before.attributes, rule.field));
  const attributes: Record<string, unknown> = Object.fromEntries(kept.map((rule) => [rule.field, before.attributes[rule.field]]));
  for (const { field, value } of cells.attributes) if (!isBlank(value)) attributes[field] = value;
  const checked = checkedAttributes(category.schemaRules, attributes, errors);
  return checked && sameAttributes(checked, before.attributes) ? before.attributes : checked;
}

/** An `images` cell names the listing's own images, in the order to keep them; an empty cell keeps them as they are. */
function updatedImages(before: ShopListingRow, cell: string | undefined, errors: ErrorDetail[]): string[] | undefined {
  if (isBlank(cell)) return before.images;
  const names = cell.split('|').map((name) => name.trim()).filter((name) => name !== '');
  try {
    return retainedImages(before.images, names);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    errors.push(...(error.details ?? []).map((detail) => ({ ...detail, field: 'images' })));
    return undefined;
  }
}

/** The audited fields of a listing compare as the audit trail compares them. */
function fieldsDiffer(before: ImportedFields, after: ImportedFields): boolean {
  return (Object.keys(after) as Array<keyof ImportedFields>).some((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

function planCreate(row: number, cells: RowCells, caller: AuthUser, context: ImportContext, errors: ErrorDetail[]): RowPlan {
  const fields = listingFields(cells, errors);
  const emailCell = cells.of('agentEmail');
  const agentId = !isBlank(emailCell) ? ownerNamed(emailCell, caller, context, errors) : caller.role === 'SUPER_ADMIN' ? undefined : caller.id;
  if (isBlank(emailCell) && agentId === undefined) errors.push({ field: 'agentEmail', message: 'is required' });
  const categoryCell = cells.of('category');
  const category = isBlank(categoryCell) ? undefined : categoryNamed(categoryCell, context, errors);
  if (isBlank(categoryCell)) errors.push({ field: 'category', message: 'is required' });
  if (fields && fields.title === undefined) errors.push({ field: 'title', message: 'is required' });
  if (fields && fields.price === undefined) errors.push({ field: 'price', message: 'is required' });
  if (!isBlank(cells.of('images'))) errors.push({ field: 'images', message: 'must be empty for a new listing: its photos are added through the listing\'s own endpoints' });
  const given = Object.fromEntries(cells.attributes.filter(({ value }) => !isBlank(value)).map(({ field, value }) => [field, value]));
  const attributes = category ? checkedAttributes(category.schemaRules, given, errors) : undefined;
  if (errors.length > 0 || !fields || !category || !attributes || agentId === undefined) return { row, kind: 'failed', errors };
  return {
    row,
    kind: 'create',
    values: {
      title: fields.title!,
      description: fields.description ?? '',
      price: fields.price!,
      status: fields.status ?? 'AVAILABLE',
      stockQuantity: fields.stockQuantity ?? 1,
      categoryId: category.id,
      agentId,
      attributes,
      images: [],
    },
  };
}

function planUpdate(row: number, found: ListingRow, cells: RowCells, caller: AuthUser, context: ImportContext, errors: ErrorDetail[]): RowPlan {
  const fail = (): RowPlan => ({ row, kind: 'failed', id: found.id, errors });
  if (caller.role !== 'SUPER_ADMIN' && found.agentId !== caller.id) {
    errors.push({ field: 'id', message: 'Not authorized', received: found.id });
    return fail();
  }
  // Written over, a listing in the trash would change unseen, or come back unasked: it stays as it is.
  if (found.deletedAt !== null) {
    errors.push({ field: 'id', message: `Listing with id "${found.id}" is in the trash: restore it first (POST /api/listings/${found.id}/restore)`, received: found.id });
    return fail();
  }
  const before = inShop(found);
  const fields = listingFields(cells, errors);
  const emailCell = cells.of('agentEmail');
  const agentId = isBlank(emailCell) ? before.agentId : ownerNamed(emailCell, caller, context, errors);
  const categoryCell = cells.of('category');
  const category = isBlank(categoryCell) ? context.categoriesById.get(before.categoryId) : categoryNamed(categoryCell, context, errors);
  const attributes = category ? updatedAttributes(before, category, cells, errors) : undefined;
  const images = updatedImages(before, cells.of('images'), errors);
  if (errors.length > 0 || !fields || !category || !attributes || !images || agentId === undefined) return fail();
  const description = cells.of('description');
  const after: ImportedFields = {
    title: fields.title ?? before.title,
    description: description === undefined ? before.description : (fields.description ?? ''),
    price: fields.price ?? before.price,
    status: fields.status ?? before.status,
    stockQuantity: fields.stockQuantity ?? before.stockQuantity,
    categoryId: category.id,
    agentId,
    attributes,
    images,
  };
  const droppedImages = before.images.filter((ref) => !images.includes(ref));
  return { row, kind: 'update', before, after, changed: fieldsDiffer(before, after), droppedImages };
}

/**
 * What a row comes to: a listing to create (no `id`), one to update (the `id` of a listing the
 * caller may manage, out of the trash), or a failure with every error of the row, in the words of the single-listing
 * endpoints and each naming its column.
 */
export function planRow(row: FileRow, layout: ImportLayout, caller: AuthUser, context: ImportContext): RowPlan {
  const cells = rowCells(row, layout);
  const errors = strayCells(row, layout);
  const idCell = cells.of('id');
  if (isBlank(idCell)) return planCreate(row.row, cells, caller, context, errors);
  const id = v.safeParse(Uuid, idCell);
  if (!id.success) return { row: row.row, kind: 'failed', id: idCell.trim(), errors: [...errors, ...issuesToDetails(id.issues).map((detail) => ({ ...detail, field: 'id' }))] };
  const before = context.listings.get(id.output.toLowerCase());
  if (!before) return { row: row.row, kind: 'failed', id: id.output, errors: [...errors, { field: 'id', message: `Listing with id "${id.output}" not found` }] };
  return planUpdate(row.row, before, cells, caller, context, errors);
}

/** The valid listing ids a file names, lower-cased as the database answers them. */
export function namedIds(rows: readonly FileRow[], layout: ImportLayout): string[] {
  const index = layout.at.id;
  if (index === undefined) return [];
  return rows.flatMap((row) => {
    const id = v.safeParse(Uuid, row.cells[index] ?? '');
    return id.success ? [id.output.toLowerCase()] : [];
  });
}

/** The e-mails a file names as owners, as stored (lower-cased). */
export function namedEmails(rows: readonly FileRow[], layout: ImportLayout): string[] {
  const index = layout.at.agentEmail;
  if (index === undefined) return [];
  return [...new Set(rows.map((row) => emailKey(row.cells[index] ?? '')).filter((email) => email !== ''))];
}
