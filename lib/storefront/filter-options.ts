import type { SchemaRule } from '../db/schema.js';
import type { CategoryFilterValues } from './queries.js';

const naturalOrder = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function sortedValues(rule: SchemaRule, values: string[]): string[] {
  if (rule.type === 'number') return [...values].sort((a, b) => Number(a) - Number(b));
  return [...values].sort((a, b) => naturalOrder.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Each rule of the category with the values a shopper can still find: a select keeps its own
 * options that are present, in the rule's order; any other rule offers the values present (the
 * most common, when there are more than a panel can show, with `hasMoreOptions: true`), in
 * natural order. Rule fields are read with `Object.hasOwn`, so no field name reaches object internals.
 */
export function filterOptionsPresenter({ schemaRules, values, cutFields }: CategoryFilterValues) {
  const cut = new Set(cutFields);
  return Object.fromEntries(
    schemaRules.map((rule) => {
      const present = Object.hasOwn(values, rule.field) ? values[rule.field]! : [];
      if (rule.type === 'select' && rule.options) {
        const wanted = new Set(present.map((value) => value.toLowerCase()));
        return [rule.field, { ...rule, options: rule.options.filter((option) => wanted.has(option.toLowerCase())) }];
      }
      const options = sortedValues(rule, present);
      return [rule.field, cut.has(rule.field) ? { ...rule, options, hasMoreOptions: true } : { ...rule, options }];
    }),
  );
}
