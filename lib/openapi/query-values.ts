import { QUERY_VALUE_TYPES } from '../http/common-schemas.js';
import type { JsonSchema } from './json-schema.js';

/** What the walk reads of a valibot schema or action. */
interface SchemaNode {
  type: string;
  kind: string;
  pipe?: readonly SchemaNode[];
  wrapped?: SchemaNode;
  default?: unknown;
  requirement?: unknown;
  description?: string;
}

/** The schema inside `optional` wrappers and a form field's normalising pipe, with the default it falls back to. */
function unwrapped(schema: SchemaNode): { node: SchemaNode; fallback: unknown } {
  let node = schema;
  let fallback: unknown;
  for (;;) {
    if (node.type === 'optional' && node.wrapped) {
      fallback ??= node.default;
      node = node.wrapped;
      continue;
    }
    const inner = node.pipe?.[0]?.type === 'unknown' ? node.pipe.slice(1).findLast((item) => item.kind === 'schema') : undefined;
    if (!inner) return { node, fallback };
    node = inner;
  }
}

/** A schema and everything its pipes hold, nested pipes included, in order. */
function pipeItems(node: SchemaNode): SchemaNode[] {
  return [node, ...(node.pipe ?? []).flatMap((item, index) => (index === 0 ? pipeItems(item) : [item]))];
}

/**
 * A query value is text on the wire, but a parameter read as a whole number, a number or a
 * boolean is documented as one (with its bounds and default), as clients should send it. Other
 * parameters are left to the general conversion (undefined).
 */
export function queryValueSchema(schema: unknown): JsonSchema | undefined {
  const { node, fallback } = unwrapped(schema as SchemaNode);
  const items = pipeItems(node);
  const type = items.map((item) => QUERY_VALUE_TYPES.get(item)).find((found) => found !== undefined);
  if (!type) return undefined;
  const described: JsonSchema = { type };
  for (const item of items) {
    if (item.type === 'min_value') described.minimum = item.requirement;
    if (item.type === 'max_value') described.maximum = item.requirement;
    if (item.type === 'description') described.description = item.description;
  }
  if (fallback !== undefined) described.default = type === 'boolean' ? fallback === 'true' : Number(fallback);
  return described;
}
