/**
 * The correctness check of the load section: the service and the floor must answer each scenario
 * with the same items, or the throughput of the two would not be comparable.
 */
type Json = Record<string, unknown>;

/**
 * A storefront item reduced to what both answer alike: tags and features as sets, since their
 * order follows the category rules only in the service; without `photos` and `heroPhoto`, the
 * service's responsive forms of the same images as `gallery` and `hero`, which the floor lacks.
 */
function comparableItem(item: Json): Json {
  const sorted = (value: unknown) => (Array.isArray(value) ? [...(value as string[])].sort() : value);
  const { tags, features, photos: _photos, heroPhoto: _heroPhoto, ...rest } = item;
  return { ...rest, tags: sorted(tags), features: sorted(features) };
}

type OptionsEntry = { options?: unknown[]; hasMoreOptions?: boolean };

/** Filter options reduced to each field's options as a set. */
function comparableOptions(data: Json): Record<string, string[]> {
  return Object.fromEntries(Object.entries(data).map(([field, entry]) => [field, [...((entry as OptionsEntry).options ?? [])].map(String).sort()]));
}

/**
 * Both answers' filter options as sets. A free-text field the service offers only its most common
 * values of (`hasMoreOptions`) is compared on those: the floor's must hold each of them.
 */
function comparableOptionPairs(ours: Json, floor: Json): [unknown, unknown] {
  const mine = comparableOptions(ours);
  const theirs = comparableOptions(floor);
  for (const [field, entry] of Object.entries(ours)) {
    if ((entry as OptionsEntry).hasMoreOptions && theirs[field]) theirs[field] = theirs[field].filter((option) => mine[field]!.includes(option));
  }
  return [mine, theirs];
}

/** Asset statistics without the categories that hold no listing (the floor lists every category). */
function comparableStats(data: Json): Json {
  const byCategory = (data.byCategory as Array<Json & { count: number }>).filter((entry) => entry.count > 0);
  return { ...data, byCategory };
}

export type AnswerKind = 'list' | 'detail' | 'filter-options' | 'asset-stats';

/** Each kind's answers, the service's and the floor's, reduced to what both must hold alike. */
const COMPARED_BY_KIND: Record<AnswerKind, (ours: unknown, floor: unknown) => [unknown, unknown]> = {
  list: (ours, floor) => [(ours as Json[]).map(comparableItem), (floor as Json[]).map(comparableItem)],
  // The detail counts a view, so each answer carries the other's count plus one: the check leaves it out.
  detail: (ours, floor) => [comparableItem(ours as Json), comparableItem(floor as Json)],
  'filter-options': (ours, floor) => comparableOptionPairs(ours as Json, floor as Json),
  'asset-stats': (ours, floor) => [comparableStats(ours as Json), comparableStats(floor as Json)],
};

/** The first difference between two answers' data, as a path and both values, or undefined when alike. */
export function firstDifference(kind: AnswerKind, ours: unknown, floor: unknown): string | undefined {
  return differenceAt('data', ...COMPARED_BY_KIND[kind](ours, floor));
}

function differenceAt(path: string, a: unknown, b: unknown): string | undefined {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}: ${a.length} items against ${b.length}`;
    for (const [index, item] of a.entries()) {
      const found = differenceAt(`${path}[${index}]`, item, b[index]);
      if (found) return found;
    }
    return undefined;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = differenceAt(`${path}.${key}`, (a as Json)[key], (b as Json)[key]);
      if (found) return found;
    }
    return undefined;
  }
  return Object.is(a, b) ? undefined : `${path}: ${JSON.stringify(a)} against ${JSON.stringify(b)}`;
}
