import * as v from 'valibot';
import { ApiError, type ErrorDetail } from './api-error.js';

export type AnySchema = v.GenericSchema<unknown, unknown> | v.GenericSchemaAsync<unknown, unknown>;
export type Output<S> = S extends AnySchema ? v.InferOutput<S> : undefined;

const MAX_RECEIVED_LENGTH = 200;

function describeReceived(input: unknown): unknown {
  if (typeof input === 'string') return input.length > MAX_RECEIVED_LENGTH ? `${input.slice(0, MAX_RECEIVED_LENGTH)}…` : input;
  if (input === undefined || input === null || typeof input === 'number' || typeof input === 'boolean') return input;
  return Array.isArray(input) ? 'array' : typeof input;
}

export function issuesToDetails(issues: readonly v.BaseIssue<unknown>[]): ErrorDetail[] {
  return issues.map((issue) => {
    const field = issue.path?.map((item) => String(item.key)).join('.') ?? '';
    const detail: ErrorDetail = { field, message: issue.message };
    const received = describeReceived(issue.input);
    if (received !== undefined) detail.received = received;
    return detail;
  });
}

/** Validates one input target (body, query, params) and throws the 400 envelope on failure. */
export async function validate<S extends AnySchema>(schema: S, input: unknown, target: string): Promise<v.InferOutput<S>> {
  const result = await v.safeParseAsync(schema, input);
  if (result.success) return result.output;
  const details = issuesToDetails(result.issues);
  const first = details[0];
  const summary = first ? `${first.field ? `${first.field}: ` : ''}${first.message}` : 'invalid input';
  throw new ApiError(400, `Invalid ${target}: ${summary}`, details);
}
