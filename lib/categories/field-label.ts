/** Field names come from category rules, so there are few: each is turned into a label once. */
const labels = new Map<string, string>();
const REMEMBERED_LABELS = 2000;

/**
 * How a category rule's field name reads to people, in the storefront's feature lines and the
 * channel's captions alike: `batteryHealth`, `battery_health` and `battery-health` -> `Battery Health`.
 */
export function fieldLabel(field: string): string {
  let label = labels.get(field);
  if (label === undefined) {
    label = field
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/[_-]+/g, ' ')
      .trim()
      .split(/\s+/)
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(' ');
    if (labels.size < REMEMBERED_LABELS) labels.set(field, label);
  }
  return label;
}
