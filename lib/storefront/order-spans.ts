/**
 * The spans of creation days and prices that a listing's search document holds as terms
 * (listing_order_terms(), migration 0033), and the fewest of them that cover a range: a window of
 * the newest, cheapest or dearest listings, or a price filter, as terms the search index
 * intersects with a query's words.
 */

/** The day spans' levels: a span of level `l` holds 4^l days, from level 0 (a day) to 4 (256 days). */
const TOP_DAY_LEVEL = 4;

/** The most digits of a price's whole part (the column is numeric(12, 2)). */
const PRICE_DIGITS = 10;
const HIGHEST_WHOLE_PRICE = 10 ** PRICE_DIGITS - 1;

/** A day in milliseconds. The document counts a listing's creation day in whole days since 1970-01-01 UTC. */
export const MS_PER_DAY = 86_400_000;

/** How many days a span of `level` holds. */
const width = (level: number) => 4 ** level;

/** The spans covering exactly the days from `from` up to, not including, `until`; none when the range is empty. */
export function daySpans(from: number, until: number): string[] {
  const spans: string[] = [];
  for (let day = from; day < until; ) {
    let level = TOP_DAY_LEVEL;
    while (level > 0 && (((day % width(level)) + width(level)) % width(level) !== 0 || day + width(level) > until)) level -= 1;
    spans.push(`d:${level}:${Math.floor(day / width(level))}`);
    day += width(level);
  }
  return spans;
}

/**
 * The spans covering every price whose whole part lies from `min`'s to `max`'s (from 0 and to the
 * column's highest when not given); none when the range is empty. Spans at its ends may hold
 * prices outside it: a read checks the prices themselves as well.
 */
export function priceSpans(min: number | undefined, max: number | undefined): string[] {
  const highest = Math.min(Math.floor(max ?? HIGHEST_WHOLE_PRICE), HIGHEST_WHOLE_PRICE);
  const spans: string[] = [];
  for (let whole = Math.max(Math.floor(min ?? 0), 0); whole <= highest; ) {
    const text = String(whole);
    const digits = text.length;
    const firstDigitWidth = 10 ** Math.max(digits - 1, 0);
    const twoDigitWidth = 10 ** Math.max(digits - 2, 0);
    const lastOfDigits = 10 ** digits - 1;
    if (whole === (digits === 1 ? 0 : 10 ** (digits - 1)) && lastOfDigits <= highest) {
      spans.push(`v:${digits}`);
      whole = lastOfDigits + 1;
    } else if (whole % firstDigitWidth === 0 && whole + firstDigitWidth - 1 <= highest) {
      spans.push(`v:${digits}:${text[0]}`);
      whole += firstDigitWidth;
    } else {
      spans.push(`v:${digits}:${text.slice(0, 2)}`);
      whole = whole - (whole % twoDigitWidth) + twoDigitWidth;
    }
  }
  return spans;
}
