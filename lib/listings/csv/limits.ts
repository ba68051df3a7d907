import type { FileBodySpec } from '../../http/file-body.js';

/** A file of listings is at most this large and has at most this many rows: one function's request, imported well within its time. */
export const IMPORT_MAX_BYTES = 4 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 5000;

/** The file of an import: the CSV an export writes, as the body or as the form field `file`. */
export const listingsCsvFile: FileBodySpec = {
  mediaType: 'text/csv',
  formField: 'file',
  maxBytes: IMPORT_MAX_BYTES,
  description: `A CSV file of listings (UTF-8, the columns of an export), of at most 4 MiB and ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows.`,
};
