import { ApiError, type ErrorDetail } from '../../http/api-error.js';
import { ATTRIBUTE_PREFIX, IMPORT_COLUMNS, type ImportColumn } from './columns.js';
import { fileFault } from './read-file.js';

/** Which cell of a row holds what, as the header names them. */
export interface ImportLayout {
  /** The cell of each column the import reads. */
  at: Partial<Record<ImportColumn, number>>;
  /** The attribute columns, by field. */
  attributes: Array<{ field: string; index: number }>;
  /** Columns whose cells are not read: answered beside the rows, never a failure. */
  warnings: ErrorDetail[];
  /** How many cells the header names: a row's cells past them must be empty. */
  width: number;
}

const isImportColumn = (name: string): name is ImportColumn => (IMPORT_COLUMNS as readonly string[]).includes(name);

/** A file that creates names what a listing cannot be made without; one that only updates (it has `id`) names what it changes. */
const CREATE_COLUMNS: readonly ImportColumn[] = ['title', 'price', 'category'];

/**
 * Reads the header: the columns the import knows, the attribute columns, and the others, which are
 * reported as warnings. A column named twice, or a file without the columns a listing needs, is a
 * 400 naming them.
 */
export function importLayout(header: readonly string[]): ImportLayout {
  const separator = header.length === 1 ? [';', '\t'].find((candidate) => header[0]!.includes(candidate)) : undefined;
  // Spreadsheets in some languages save "CSV" with semicolons: say so, rather than that every column is missing.
  if (separator) throw fileFault(1, undefined, `the cells are separated by ${separator === ';' ? 'semicolons' : 'tabs'}: save the file as CSV with commas`);
  const layout: ImportLayout = { at: {}, attributes: [], warnings: [], width: header.length };
  const seen = new Set<string>();
  header.forEach((name, index) => {
    if (name === '') {
      layout.warnings.push({ field: `column ${index + 1}`, message: 'has no name: its cells are not read' });
      return;
    }
    if (seen.has(name)) throw fileFault(1, name, 'the column is named twice');
    seen.add(name);
    if (isImportColumn(name)) layout.at[name] = index;
    else if (name.startsWith(ATTRIBUTE_PREFIX) && name.length > ATTRIBUTE_PREFIX.length) layout.attributes.push({ field: name.slice(ATTRIBUTE_PREFIX.length), index });
    else layout.warnings.push({ field: name, message: 'is not a column of a listing import: its cells are not read' });
  });
  const missing = layout.at.id === undefined ? CREATE_COLUMNS.filter((column) => layout.at[column] === undefined) : [];
  if (missing.length > 0) {
    throw ApiError.badRequest(
      `Row 1: missing required columns: ${missing.join(', ')}`,
      missing.map((column) => ({ field: column, message: 'row 1: is a required column' })),
    );
  }
  return layout;
}
