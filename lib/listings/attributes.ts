import type { ListingAttributes, SchemaRule } from '../db/schema.js';
import { ApiError, type ErrorDetail } from '../http/api-error.js';

const MAX_VALUE_LENGTH = 500;

type Checked = { value: string | number | boolean } | { message: string };

/** How a value is shown back in an error: primitives as sent, anything else by its kind. */
function received(value: unknown): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > 200 ? `${value.slice(0, 200)}…` : value;
  return Array.isArray(value) ? 'array' : typeof value;
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function checkString(value: unknown): Checked {
  if (typeof value !== 'string') return { message: 'must be a string' };
  const trimmed = value.trim();
  if (trimmed.length > MAX_VALUE_LENGTH) return { message: `must be at most ${MAX_VALUE_LENGTH} characters` };
  if (trimmed.includes('\0')) return { message: 'must not contain NUL characters' };
  return { value: trimmed };
}

/** Numbers and booleans may arrive as the strings a form field produces ("12", "true"); nothing else is coerced. */
function checkNumber(value: unknown): Checked {
  if (typeof value === 'number' && Number.isFinite(value)) return { value };
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return { value: Number(value.trim()) };
  return { message: 'must be a number' };
}

function checkBoolean(value: unknown): Checked {
  if (typeof value === 'boolean') return { value };
  if (value === 'true' || value === 'false') return { value: value === 'true' };
  return { message: 'must be true or false' };
}

function checkSelect(value: unknown, options: readonly string[] | undefined): Checked {
  const chosen = typeof value === 'string' ? value.trim() : undefined;
  if (!options || options.length === 0) return checkString(value);
  if (chosen !== undefined && options.includes(chosen)) return { value: chosen };
  return { message: `must be one of: ${options.join(', ')}` };
}

function checkValue(rule: SchemaRule, value: unknown): Checked {
  switch (rule.type) {
    case 'number':
      return checkNumber(value);
    case 'boolean':
      return checkBoolean(value);
    case 'select':
      return checkSelect(value, rule.options);
    default:
      return checkString(value);
  }
}

/**
 * Checks listing attributes against a category's schemaRules and returns them as stored: required
 * fields present, each value of its rule's type, no field the category does not define. Empty
 * optional values are left out. Every failing field is reported at once (422).
 */
export function validateAttributes(rules: readonly SchemaRule[], attributes: Record<string, unknown>): ListingAttributes {
  const details: ErrorDetail[] = [];
  const valid: ListingAttributes = {};
  const fields = new Set(rules.map((rule) => rule.field));
  for (const rule of rules) {
    const value = Object.hasOwn(attributes, rule.field) ? attributes[rule.field] : undefined;
    if (isAbsent(value)) {
      if (rule.required) details.push({ field: rule.field, message: 'is required', received: received(value) });
      continue;
    }
    const checked = checkValue(rule, value);
    if ('message' in checked) details.push({ field: rule.field, message: checked.message, received: received(value) });
    else valid[rule.field] = checked.value;
  }
  for (const [field, value] of Object.entries(attributes)) {
    if (!fields.has(field)) details.push({ field, message: 'is not an attribute of this category', received: received(value) });
  }
  if (details.length > 0) throw ApiError.of('ATTRIBUTES_INVALID', 'Listing attributes validation failed', details);
  return valid;
}
