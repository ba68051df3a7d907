import { isUtf8 } from 'node:buffer';
import { CsvError, parse } from 'csv-parse/sync';
import { ApiError } from '../../http/api-error.js';
import { cellValue } from './cells.js';

/** One record of the file, at the line it starts on (the header is line 1; a quoted line break makes a record span lines). */
export interface FileRow {
  row: number;
  cells: string[];
}

export interface CsvFile {
  header: string[];
  rows: FileRow[];
}

const LF = 0x0a;
const CR = 0x0d;

/** Counts lines up to offsets taken in increasing order: a line ends at LF, CRLF or a lone CR. */
function lineCounter(bytes: Buffer): (offset: number) => number {
  let counted = 0;
  let line = 1;
  return (offset) => {
    for (; counted < offset; counted += 1) {
      const byte = bytes[counted];
      if (byte === LF || (byte === CR && bytes[counted + 1] !== LF)) line += 1;
    }
    return line;
  };
}

/** Where the record after `end` starts: past the empty lines the parser skips. */
function recordStart(bytes: Buffer, end: number): number {
  let offset = end;
  while (bytes[offset] === LF || bytes[offset] === CR) offset += 1;
  return offset;
}

/** A file fault: 400 naming the row and column, in the error and its details. */
export function fileFault(row: number, column: string | undefined, problem: string, code: 'MALFORMED_BODY' | 'VALIDATION_FAILED' = 'VALIDATION_FAILED'): ApiError {
  const where = column === undefined ? `Row ${row}` : `Row ${row}, column "${column}"`;
  return ApiError.of(code, `${where}: ${problem}`, [{ field: column ?? '', message: `row ${row}: ${problem}` }]);
}

/** The first line holding bytes that are not UTF-8 (a line break is never part of a multi-byte character). */
function firstLineNotUtf8(bytes: Buffer): number {
  let line = 1;
  let start = 0;
  for (let end = bytes.indexOf(LF); ; end = bytes.indexOf(LF, start)) {
    const stop = end === -1 ? bytes.length : end;
    if (!isUtf8(bytes.subarray(start, stop))) return line;
    if (end === -1) return line;
    start = end + 1;
    line += 1;
  }
}

const QUOTE_FAULTS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted cell is never closed (unbalanced quotes)',
  CSV_INVALID_CLOSING_QUOTE: 'a quoted cell goes on after its closing quote (write a quote inside a quoted cell twice)',
  INVALID_OPENING_QUOTE: 'a quote inside a cell that does not start with one (quote the whole cell and write the quote twice)',
};

function parseFault(error: CsvError, row: number, header: readonly string[] | undefined): ApiError {
  const index = typeof (error as CsvError & { column?: unknown }).column === 'number' ? ((error as CsvError & { column: number }).column) : undefined;
  const column = index === undefined ? undefined : (header?.[index] ?? `column ${index + 1}`);
  return fileFault(row, column, QUOTE_FAULTS[error.code] ?? error.message, 'MALFORMED_BODY');
}

const isBlank = (cells: readonly string[]) => cells.every((cell) => cell.trim() === '');

/**
 * Reads an uploaded CSV file (RFC 4180; UTF-8, with or without a byte order mark; CRLF or LF):
 * its header and its records, each cell as the value it stands for (see cellValue()). Rows whose
 * cells are all empty are left out. A file that is not UTF-8 or not CSV is a 400 naming the row
 * (and the column, where the parser knows it); more than `maxRows` records is a 413.
 */
export function readCsvFile(bytes: Buffer, maxRows: number): CsvFile {
  if (!isUtf8(bytes)) throw fileFault(firstLineNotUtf8(bytes), undefined, 'the file is not UTF-8 text', 'MALFORMED_BODY');
  const lineAt = lineCounter(bytes);
  const records: FileRow[] = [];
  let end = 0;
  try {
    parse(bytes, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      // Each record is kept here with its line, from the byte offset where the parser ended it.
      on_record: (record, context) => {
        records.push({ row: lineAt(recordStart(bytes, end)), cells: record.map(cellValue) });
        end = context.bytes;
        return null;
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw parseFault(error, lineAt(recordStart(bytes, end)), records[0]?.cells);
  }
  const [header, ...rows] = records;
  if (!header || isBlank(header.cells)) throw fileFault(header?.row ?? 1, undefined, 'the file has no header: its first row must name the columns');
  const filled = rows.filter((row) => !isBlank(row.cells));
  if (filled.length > maxRows) throw new ApiError(413, `Too many rows: at most ${maxRows} in one file, and this one has ${filled.length}`);
  return { header: header.cells.map((name) => name.trim()), rows: filled };
}
