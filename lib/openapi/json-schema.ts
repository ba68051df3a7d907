import { toJsonSchema, type ConversionConfig } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import type { AnySchema } from '../http/validation.js';

export type JsonSchema = Record<string, unknown>;

type AnyValibotSchema = v.BaseSchema<unknown, unknown, v.BaseIssue<unknown>>;
type PipeItem = { kind: string; type: string };

/**
 * A form field that may arrive empty is `optional(pipe(unknown(), normalise, schema))`: it accepts
 * what its last schema accepts, so describe that schema rather than "anything". The converter does
 * not offer pipes to the override, so the `optional` around it is where this is caught.
 */
function normalisedSchemaOf(schema: AnyValibotSchema): AnyValibotSchema | undefined {
  if (schema.type !== 'optional') return undefined;
  const pipe = (schema as unknown as { wrapped: { pipe?: readonly PipeItem[] } }).wrapped.pipe;
  if (!pipe || pipe[0]?.type !== 'unknown') return undefined;
  const inner = pipe.slice(1).findLast((item) => item.kind === 'schema');
  return inner as AnyValibotSchema | undefined;
}

function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  // Requests are validated on their input: describe what a client sends, before any transform.
  typeMode: 'input',
  // Custom checks and transforms have no JSON Schema form; the schema keeps everything else.
  errorMode: 'ignore',
  overrideSchema: ({ valibotSchema, jsonSchema }) => {
    const inner = normalisedSchemaOf(valibotSchema);
    // `jsonSchema` keeps what the optional itself adds (its default).
    return inner ? { ...withoutDialect(toJsonSchema(inner, CONVERSION) as JsonSchema), ...jsonSchema } : undefined;
  },
};

/** The JSON Schema (2020-12, OpenAPI 3.1's dialect) of what a valibot schema accepts. */
export function requestJsonSchema(schema: AnySchema): JsonSchema {
  return withoutDialect(toJsonSchema(schema as AnyValibotSchema, CONVERSION) as JsonSchema);
}

const ANSWER_CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  // Answers are described as a presenter outputs them.
  typeMode: 'output',
  errorMode: 'throw',
  // A presenter's `Date` is written as ISO 8601 text.
  overrideSchema: ({ valibotSchema }) => (valibotSchema.type === 'date' ? { type: 'string', format: 'date-time' } : undefined),
};

/** The JSON Schema of an answer a view (a presenter's output schema) describes, as JSON carries it. */
export function answerJsonSchema(schema: AnySchema): JsonSchema {
  return withoutDialect(toJsonSchema(schema as AnyValibotSchema, ANSWER_CONVERSION) as JsonSchema);
}
