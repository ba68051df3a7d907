import type { SchemaRule } from '../db/schema.js';
import type { FieldCounts } from './facet-counts.js';
import type { CategoryFilterValues } from './queries.js';

const naturalOrder = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function sortedValues(rule: SchemaRule, values: string[]): string[] {
  if (rule.type === 'number') return [...values].sort((a, b) => Number(a) - Number(b));
  return [...values].sort((a, b) => naturalOrder.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Each option with the listings it would leave; values are counted lower-cased, as the list's filters match them. */
function countsOf(options: string[], counted: Map<string, number> | undefined): Record<string, number> {
  return Object.fromEntries(options.map((option) => [option, counted?.get(option.toLowerCase()) ?? 0]));
}

/**
 * Each rule of the category with the values a shopper can still find: a select keeps its own
 * options that are present, in the rule's order; any other rule offers the values present (the
 * most common, when there are more than a panel can show, with `hasMoreOptions: true`), in
 * natural order. Each carries `counts`, the listings every option would leave, 0 for an
 * option the other filters rule out. Rule fields are read with `Object.hasOwn`, so no field name
 * reaches object internals.
 */
export function filterOptionsPresenter({ schemaRules, values, cutFields }: CategoryFilterValues, counts: FieldCounts) {
  const cut = new Set(cutFields);
  return Object.fromEntries(
    schemaRules.map((rule) => {
      const present = Object.hasOwn(values, rule.field) ? values[rule.field]! : [];
      if (rule.type === 'select' && rule.options) {
        const wanted = new Set(present.map((value) => value.toLowerCase()));
        const options = rule.options.filter((option) => wanted.has(option.toLowerCase()));
        return [rule.field, { ...rule, options, counts: countsOf(options, counts.get(rule.field)) }];
      }
      const options = sortedValues(rule, present);
      const offered = { ...rule, options, counts: countsOf(options, counts.get(rule.field)) };
      return [rule.field, cut.has(rule.field) ? { ...offered, hasMoreOptions: true as const } : offered];
    }),
  );
}
