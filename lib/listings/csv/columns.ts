import type { SchemaRule } from '../../db/schema.js';

/** Attribute columns are named by their field behind this prefix: `attr:brand`. */
export const ATTRIBUTE_PREFIX = 'attr:';

/** A listing's images share one cell, in order, between these. */
export const IMAGE_SEPARATOR = ' | ';

/** The columns of an exported file before its attribute columns, and after them. */
export const LEADING_COLUMNS = ['id', 'title', 'description', 'price', 'stockQuantity', 'status', 'category'] as const;
export const TRAILING_COLUMNS = ['images', 'createdAt'] as const;

/** The columns an import reads: the exported ones (createdAt is the store's own and never read) and the owner's e-mail. */
export const IMPORT_COLUMNS = [...LEADING_COLUMNS, ...TRAILING_COLUMNS, 'agentEmail'] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

export function attributeColumn(field: string): string {
  return `${ATTRIBUTE_PREFIX}${field}`;
}

/**
 * The attribute fields of an export, over the rules of the categories in it taken in order: each
 * category's fields in its own order, a field that an earlier category has already named once.
 */
export function attributeFieldsOf(categories: ReadonlyArray<{ schemaRules: readonly SchemaRule[] }>): string[] {
  return [...new Set(categories.flatMap((category) => category.schemaRules.map((rule) => rule.field)))];
}

/** The header of an export with these attribute fields. */
export function exportHeader(attributeFields: readonly string[]): string[] {
  return [...LEADING_COLUMNS, ...attributeFields.map(attributeColumn), ...TRAILING_COLUMNS];
}
