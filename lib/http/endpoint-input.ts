import type { FileBodySpec } from './file-body.js';
import type { IncomingRequest } from './incoming-request.js';
import { readJsonBody } from './json-body.js';
import type { FormSpec, ParsedForm } from './multipart.js';
import { validate, type AnySchema, type Output } from './validation.js';

export interface Schemas {
  params?: AnySchema;
  query?: AnySchema;
  /** A JSON body. */
  body?: AnySchema;
  /** A multipart (or JSON) form: fields validated by `body`, files consumed by the spec. */
  form?: FormSpec<unknown>;
  /** One file, as the whole body or a multipart form's one file field. */
  file?: FileBodySpec;
}

type FilesOf<S extends Schemas> = S['form'] extends FormSpec<infer T> ? ParsedForm<T>['files'] : [];

/** An endpoint's inputs, each validated once at the edge. */
export interface Input<S extends Schemas> {
  params: Output<S['params']>;
  query: Output<S['query']>;
  body: Output<S['body']>;
  files: FilesOf<S>;
  /** The file's bytes, when the endpoint takes one. */
  file: S['file'] extends FileBodySpec ? Buffer : undefined;
}

/** Keys come from the caller: a prototype-free object, so `__proto__` and the like are plain keys. */
function queryObject(url: URL): Record<string, string | string[]> {
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

/** The fields an object schema declares, the only ones a form of it may carry. */
export function fieldNamesOf(schema: AnySchema | undefined): ReadonlySet<string> | undefined {
  return schema && 'entries' in schema ? new Set(Object.keys(schema.entries as object)) : undefined;
}

/**
 * The input step: path parameters (which arrive in the query string, as the serverless platform
 * passes them), query and body, each validated against its schema.
 */
export async function readInput(schemas: Schemas, request: IncomingRequest, url: URL): Promise<Input<Schemas>> {
  const query = queryObject(url);
  const input: Input<Schemas> = {
    params: schemas.params ? await validate(schemas.params, query, 'path parameter') : undefined,
    query: schemas.query ? await validate(schemas.query, query, 'query') : undefined,
    body: undefined,
    files: [],
    file: undefined,
  };
  if (schemas.form) {
    // The multipart parser is loaded only by functions that take forms, keeping reads light.
    const { readForm } = await import('./multipart.js');
    const form = await readForm(request, schemas.form, fieldNamesOf(schemas.body));
    input.files = form.files as never;
    input.body = schemas.body ? await validate(schemas.body, form.fields, 'request body') : form.fields;
  } else if (schemas.file) {
    const { readFileBody } = await import('./file-body.js');
    input.file = (await readFileBody(request, schemas.file)) as never;
  } else if (schemas.body) {
    input.body = await validate(schemas.body, await readJsonBody(request), 'request body');
  }
  return input;
}
