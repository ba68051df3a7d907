import type { SchemaRule } from '../db/schema.js';
import type { CategoryFilterValues } from './queries.js';

const naturalOrder = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function sortedValues(rule: SchemaRule, values: string[]): string[] {
  if (rule.type === 'number') return [...values].sort((a, b) => Number(a) - Number(b));
  return [...values].sort((a, b) => naturalOrder.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Each rule of the category with the values a shopper can still find: a select keeps its own
 * options that are present, in the rule's order; any other rule offers the values present.
 */
export function filterOptionsPresenter({ schemaRules, values }: CategoryFilterValues) {
  return Object.fromEntries(
    schemaRules.map((rule) => {
      const present = values[rule.field] ?? [];
      if (rule.type === 'select' && rule.options) {
        const wanted = new Set(present.map((value) => value.toLowerCase()));
        return [rule.field, { ...rule, options: rule.options.filter((option) => wanted.has(option.toLowerCase())) }];
      }
      return [rule.field, { ...rule, options: sortedValues(rule, present) }];
    }),
  );
}
