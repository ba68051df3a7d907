/**
 * A cell a spreadsheet would run as a formula starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return (OWASP's CSV injection list). Such a cell is written behind a single quote, which the
 * spreadsheet shows as text. Cells that already start with quotes before one of those characters
 * get one quote more, so reading takes exactly one off and every value comes back as it was.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** A value as a cell of an exported file: never a formula. */
export function protectedCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A cell of an imported file as the value it stands for: the quote protectedCell() added comes off. */
export function cellValue(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell;
}
