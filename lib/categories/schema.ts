import * as v from 'valibot';
import type { SchemaRule } from '../db/schema.js';

const MAX_NAME_LENGTH = 100;
const MAX_ICON_LENGTH = 64;
const MAX_RULES = 50;
const MAX_FIELD_LENGTH = 64;
const MAX_OPTIONS = 100;
const MAX_OPTION_LENGTH = 100;

/**
 * The stored code of a category: upper snake case ("smart watches", "smartWatches" and
 * "Smart-Watches" all become `SMART_WATCHES`). Letters and digits of any script are kept.
 */
export function normalizeCategoryName(value: string): string {
  return value
    .trim()
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1_$2')
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
}

/** Names a missing key as required instead of valibot's generic "Invalid key" wording. */
function objectMessage(what: string): v.ErrorMessage<v.BaseIssue<unknown>> {
  return (issue) => (issue.kind === 'schema' && issue.received === 'undefined' && issue.expected?.startsWith('"') ? 'is required' : `must be ${what}`);
}

const CategoryName = v.pipe(
  v.string('must be a string'),
  v.transform(normalizeCategoryName),
  v.nonEmpty('must contain at least one letter or digit'),
  v.maxLength(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`),
);

const DisplayName = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.nonEmpty('must not be empty'),
  v.maxLength(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`),
);

const Icon = v.pipe(v.string('must be a string'), v.trim(), v.maxLength(MAX_ICON_LENGTH, `must be at most ${MAX_ICON_LENGTH} characters`));

/** Attribute names become JSON keys and query parameters, so they are plain identifiers. */
const FieldName = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.nonEmpty('must not be empty'),
  v.maxLength(MAX_FIELD_LENGTH, `must be at most ${MAX_FIELD_LENGTH} characters`),
  v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must start with a letter or underscore and contain only letters, digits and underscores'),
  // Field names become keys of attribute objects and option maps: none may name an object's internals.
  v.check((name) => !(name in Object.prototype) && name !== 'prototype', 'must not be a name JavaScript objects reserve (such as constructor or __proto__)'),
);

const Required = v.optional(v.boolean('must be true or false'), false);

const Options = v.pipe(
  v.array(
    v.pipe(
      v.string('must be a string'),
      v.trim(),
      v.nonEmpty('must not be empty'),
      v.maxLength(MAX_OPTION_LENGTH, `must be at most ${MAX_OPTION_LENGTH} characters`),
    ),
    'a select field needs an array of options',
  ),
  v.minLength(1, 'a select field needs at least one option'),
  v.maxLength(MAX_OPTIONS, `must have at most ${MAX_OPTIONS} options`),
  v.check((options) => new Set(options).size === options.length, 'options must be unique'),
);

const SelectRule = v.object(
  {
    field: FieldName,
    type: v.literal('select'),
    required: Required,
    options: Options,
  },
  objectMessage('a rule object'),
);

const PlainRule = v.object(
  {
    field: FieldName,
    type: v.picklist(['string', 'number', 'boolean']),
    required: Required,
    options: v.optional(v.never('only select fields take options')),
  },
  objectMessage('a rule object'),
);

const Rule = v.variant('type', [SelectRule, PlainRule], (issue) =>
  issue.expected === 'Object' ? 'must be a rule object' : 'type must be one of string, number, boolean, select',
);

/** The rules a category's listings' attributes are checked against; field names unique (case-sensitive). */
export const SchemaRules = v.pipe(
  v.array(Rule, 'must be an array of rules'),
  v.maxLength(MAX_RULES, `must have at most ${MAX_RULES} rules`),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const seen = new Set<string>();
    dataset.value.forEach((rule, index) => {
      if (seen.has(rule.field)) {
        addIssue({
          message: `duplicate field "${rule.field}"`,
          input: rule.field,
          path: [
            { type: 'array', origin: 'value', input: dataset.value, key: index, value: rule },
            { type: 'object', origin: 'value', input: rule, key: 'field', value: rule.field },
          ],
        });
      }
      seen.add(rule.field);
    });
  }),
  v.transform((rules): SchemaRule[] => rules),
);

export const CategoryCreateBody = v.object(
  {
    name: CategoryName,
    displayName: DisplayName,
    /** The original service's default, kept for its clients. */
    icon: v.optional(Icon, 'tag'),
    schemaRules: v.optional(SchemaRules, []),
  },
  objectMessage('a JSON object'),
);

export const CategoryUpdateBody = v.pipe(
  v.object({
    name: v.optional(CategoryName),
    displayName: v.optional(DisplayName),
    icon: v.optional(Icon),
    schemaRules: v.optional(SchemaRules),
  }, objectMessage('a JSON object')),
  v.check((body) => Object.values(body).some((value) => value !== undefined), 'send at least one of name, displayName, icon, schemaRules'),
);

export type CategoryCreate = v.InferOutput<typeof CategoryCreateBody>;
export type CategoryUpdate = v.InferOutput<typeof CategoryUpdateBody>;
