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
 * The spans covering every day from `from` on, up to at least `until`, after which no listing was
 * created yet: the fewest, reaching past `until` where that saves spans. The newest 10 days up to
 * a day that is not a span's last are five spans exactly, and four reaching a few days further.
 */
export function daySpansFrom(from: number, until: number): string[] {
  if (until <= from) return [];
  let fewest = daySpans(from, until);
  for (let level = 1; level <= TOP_DAY_LEVEL; level += 1) {
    const spans = daySpans(from, Math.ceil(until / width(level)) * width(level));
    if (spans.length < fewest.length) fewest = spans;
  }
  return fewest;
}

/**
 * The share of a read's listings priced from `from` to `to`, both included: what the spans at a
 * price range's ends would hold beyond it.
 */
export type PriceShares = (from: number, to: number) => number;

/**
 * What a span of prices saved is worth, as a share of the listings the query's other terms find,
 * when a span holding more replaces it. The search index advances every term of a query to each
 * listing its rarest terms find: at a million listings, ten spans fewer took AirPods' dearest
 * window from 88 to 36 ms (about 0.2 µs a term for each of 24,865 listings), while each listing a
 * span holds beyond the range costs about 11 µs in the index and the rows, and more read from
 * disk. When the spans themselves are the rarest terms, fewer of them saves nothing, so a span is
 * given up only for what adds almost nothing.
 */
const TERM_SHARE = 0.005;

/** The prices whose whole part has `digits` digits and begins with `leading` (none to two digits): the term `v:<digits>[:<leading>]`. */
interface PriceSpan {
  digits: number;
  leading: string;
}

const termOf = ({ digits, leading }: PriceSpan) => (leading === '' ? `v:${digits}` : `v:${digits}:${leading}`);

/** The first and last whole price a span holds. */
function wholesOf({ digits, leading }: PriceSpan): [number, number] {
  if (leading === '') return [digits === 1 ? 0 : 10 ** (digits - 1), 10 ** digits - 1];
  const width = 10 ** (digits - leading.length);
  return [Number(leading) * width, (Number(leading) + 1) * width - 1];
}

/** The spans one leading digit longer, which a span is made of; none past two (one for a price of one digit). */
function partsOf({ digits, leading }: PriceSpan): PriceSpan[] {
  if (leading.length === Math.min(2, digits)) return [];
  const firstDigit = leading === '' && digits > 1 ? 1 : 0;
  return Array.from({ length: 10 - firstDigit }, (_, digit) => ({ digits, leading: leading + String(firstDigit + digit) }));
}

interface Cover {
  spans: string[];
  /** Its terms, plus what the listings it holds beyond the range cost, in terms (TERM_SHARE). */
  cost: number;
}

/** The cheapest spans within `span` covering its prices from `lowest` to `highest` (whole parts). */
function cheapestCover(span: PriceSpan, lowest: number, highest: number, beyond: PriceShares | undefined): Cover {
  const [first, last] = wholesOf(span);
  if (last < lowest || first > highest) return { spans: [], cost: 0 };
  if (first >= lowest && last <= highest) return { spans: [termOf(span)], cost: 1 };
  const parts = partsOf(span);
  const outside = (first < lowest ? (beyond?.(first, lowest - 0.01) ?? 0) : 0) + (last > highest ? (beyond?.(highest + 1, last + 0.99) ?? 0) : 0);
  const whole = { spans: [termOf(span)], cost: 1 + (beyond === undefined && parts.length > 0 ? Infinity : outside / TERM_SHARE) };
  if (parts.length === 0) return whole;
  const split = parts
    .map((part) => cheapestCover(part, lowest, highest, beyond))
    .reduce((cover, part) => ({ spans: [...cover.spans, ...part.spans], cost: cover.cost + part.cost }));
  return split.cost < whole.cost ? split : whole;
}

/**
 * The spans of prices covering every price whose whole part lies from `min`'s to `max`'s (from 0
 * and to the column's highest when not given); none when the range is empty. Spans at its ends may
 * hold prices outside it: a read checks the prices themselves as well.
 *
 * Each span is a term the search index may check for every listing its other terms find, so a
 * span saved can be worth a few more listings read. Given `beyond`, the share of those listings
 * priced in a stretch outside the range, the range is covered by the spans that cost least, a
 * term counted as TERM_SHARE of the listings: from 20,253 birr up, `v:5:2` rather than `v:5:20`
 * to `v:5:29` when few listings lie from 20,000 to 20,252. Without it, only two-digit spans at the
 * ends hold prices outside the range.
 */
export function priceSpans(min: number | undefined, max: number | undefined, beyond?: PriceShares): string[] {
  const lowest = Math.max(Math.floor(min ?? 0), 0);
  const highest = Math.min(Math.floor(max ?? HIGHEST_WHOLE_PRICE), HIGHEST_WHOLE_PRICE);
  if (highest < lowest) return [];
  return Array.from({ length: PRICE_DIGITS }, (_, index) => cheapestCover({ digits: index + 1, leading: '' }, lowest, highest, beyond).spans).flat();
}
