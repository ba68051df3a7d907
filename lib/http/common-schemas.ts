import * as v from 'valibot';

/** A UUID path or body value. */
export const Uuid = v.pipe(v.string('must be a string'), v.trim(), v.uuid('must be a valid UUID'));

/** `{ id }` taken from the path (`[id].ts`). */
export const IdParams = v.object({ id: Uuid });

/** A whole number from a query string ("20" -> 20). */
const QueryWholeNumber = v.pipe(v.string('must be a single value'), v.trim(), v.regex(/^-?\d+$/, 'must be a whole number'), v.transform(Number));

/** A whole number from a query string, within bounds. */
export function queryInteger(min: number, max: number, fallback: number) {
  return v.optional(v.pipe(QueryWholeNumber, v.minValue(min, `must be at least ${min}`), v.maxValue(max, `must be at most ${max}`)), String(fallback));
}

/**
 * A list's `limit`: a whole number from 1; one above the list's maximum is taken as the maximum
 * (as the original service did), and `pagination.limit` says what was applied.
 */
export function queryLimit(maxLimit: number, fallback: number) {
  return v.optional(
    v.pipe(
      QueryWholeNumber,
      v.minValue(1, 'must be at least 1'),
      v.transform((limit) => Math.min(limit, maxLimit)),
      v.description(`At most ${maxLimit}: a larger limit is taken as ${maxLimit}.`),
    ),
    String(fallback),
  );
}

/** `page` (from 1) and `limit` (1..max, default as given; above max, max): the paging of every admin list. */
export function pageQuery(defaultLimit = 20, maxLimit = 100) {
  return {
    page: queryInteger(1, 1_000_000, 1),
    limit: queryLimit(maxLimit, defaultLimit),
  };
}

/** A decimal number from a query string. */
export const QueryNumber = v.pipe(
  v.string('must be a single value'),
  v.trim(),
  v.regex(/^-?\d+(\.\d+)?$/, 'must be a number'),
  v.transform(Number),
);

/** `true`/`false` from a query string. */
export const QueryBoolean = v.pipe(
  v.picklist(['true', 'false', '1', '0'], 'must be true or false'),
  v.transform((value) => value === 'true' || value === '1'),
);

/** The query values read as numbers or booleans: the document describes each parameter by what it reads. */
export const QUERY_VALUE_TYPES: ReadonlyMap<unknown, 'integer' | 'number' | 'boolean'> = new Map<unknown, 'integer' | 'number' | 'boolean'>([
  [QueryWholeNumber, 'integer'],
  [QueryNumber, 'number'],
  [QueryBoolean, 'boolean'],
]);

export type PageQuery = { page: number; limit: number };

export function offsetOf({ page, limit }: PageQuery): number {
  return (page - 1) * limit;
}
