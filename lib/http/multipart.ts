import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { ApiError } from './api-error.js';
import { contentTypeOf, discardBody, type IncomingRequest } from './incoming-request.js';
import { readJsonBody } from './json-body.js';

export interface IncomingFile {
  field: string;
  /** The client's file name: informational only, never used for storage paths. */
  filename: string;
  mimeType: string;
  stream: Readable;
}

export interface FormSpec<T> {
  /** Form fields that may carry files; a file in any other field is refused. */
  fileFields: readonly string[];
  maxFiles: number;
  maxFileBytes: number;
  /** The status of a file over `maxFileBytes`: 400 by default; 413 where the file is what the request carries. */
  oversizeStatus?: 400 | 413;
  /** Consumes one file as it streams in (so a whole upload is never buffered), e.g. decode and re-encode it. */
  processFile: (file: IncomingFile) => Promise<T>;
}

export interface ParsedForm<T> {
  /** Text fields as sent (strings for multipart; any JSON value when the body was JSON). */
  fields: Record<string, unknown>;
  files: Array<{ field: string; value: T }>;
}

const MAX_FIELDS = 100;
const MAX_FIELD_BYTES = 1024 * 1024;
/** All text fields of one form together, as for a JSON body: what a request can make the service hold before validation. */
const MAX_TEXT_BYTES = 1024 * 1024;

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

function parseMultipart<T>(request: IncomingRequest, spec: FormSpec<T>, knownFields: ReadonlySet<string> | undefined): Promise<ParsedForm<T>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        limits: { files: spec.maxFiles, fileSize: spec.maxFileBytes, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES },
      });
    } catch {
      discardBody(request);
      reject(ApiError.of('MALFORMED_BODY', 'Malformed multipart body'));
      return;
    }
    const fields = Object.create(null) as Record<string, unknown>;
    const pending: Array<Promise<{ field: string; value: T }>> = [];
    let failure: ApiError | undefined;
    let textBytes = 0;
    const fail = (error: ApiError) => {
      failure ??= error;
    };
    // Past the text budget nothing more is parsed or held: the rest of the body is drained unread.
    const abort = (error: ApiError) => {
      fail(error);
      request.body.unpipe(parser);
      parser.destroy();
      discardBody(request);
      reject(error);
    };

    parser.on('field', (name, value, info) => {
      textBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (textBytes > MAX_TEXT_BYTES) return abort(new ApiError(413, `Form fields too large: at most ${megabytes(MAX_TEXT_BYTES)} in all`));
      if (knownFields && !knownFields.has(name)) return fail(ApiError.badRequest(`Unexpected field "${name}"`));
      if (info.valueTruncated) fail(ApiError.badRequest(`Field "${name}" is too long: at most ${megabytes(MAX_FIELD_BYTES)}`));
      else fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      if (!spec.fileFields.includes(field)) {
        fail(ApiError.badRequest(`Unexpected file field "${field}"`));
        stream.resume();
        return;
      }
      if (failure) {
        stream.resume();
        return;
      }
      let overLimit = false;
      stream.on('limit', () => {
        overLimit = true;
        fail(new ApiError(spec.oversizeStatus ?? 400, `File "${info.filename}" is too large: at most ${megabytes(spec.maxFileBytes)} per file`));
      });
      const processed = spec
        .processFile({ field, filename: info.filename ?? '', mimeType: info.mimeType, stream })
        .then((value) => ({ field, value }));
      // A rejection is reported once the whole body has been read; keep it from surfacing as unhandled meanwhile.
      processed.catch((error: unknown) => {
        if (overLimit) return;
        if (error instanceof ApiError) fail(error);
        stream.resume();
      });
      pending.push(processed);
    });
    parser.on('filesLimit', () => fail(ApiError.badRequest(`Too many files: at most ${spec.maxFiles}`)));
    parser.on('fieldsLimit', () => fail(ApiError.badRequest(`Too many form fields: at most ${MAX_FIELDS}`)));
    parser.on('error', () => {
      request.body.unpipe(parser);
      discardBody(request);
      reject(failure ?? ApiError.of('MALFORMED_BODY', 'Malformed multipart body'));
    });
    parser.on('close', () => {
      Promise.allSettled(pending).then((results) => {
        if (failure) return reject(failure);
        const rejected = results.find((result) => result.status === 'rejected');
        if (rejected) return reject((rejected as PromiseRejectedResult).reason);
        resolve({ fields, files: results.map((result) => (result as PromiseFulfilledResult<{ field: string; value: T }>).value) });
      }, reject);
    });
    // A Node request says 'aborted' when its client goes away; a Web body stream errors.
    for (const event of ['aborted', 'error']) request.body.on(event, () => reject(ApiError.of('MALFORMED_BODY', 'Request aborted')));
    request.body.pipe(parser);
  });
}

/**
 * Reads a form write: multipart/form-data (with files) or, for clients that send no files,
 * a JSON object with the same fields. An empty body reads as no fields. `knownFields`, when given,
 * are the only text fields a multipart form may carry; its text fields share one size budget.
 */
export async function readForm<T>(request: IncomingRequest, spec: FormSpec<T>, knownFields?: ReadonlySet<string>): Promise<ParsedForm<T>> {
  const type = contentTypeOf(request);
  if (type === 'multipart/form-data') return parseMultipart(request, spec, knownFields);
  if (type === '' || type === 'application/json') {
    const body = await readJsonBody(request);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw ApiError.badRequest('Invalid request body: expected an object of fields');
    }
    return { fields: body as Record<string, unknown>, files: [] };
  }
  discardBody(request);
  throw new ApiError(415, 'Content-Type must be multipart/form-data or application/json');
}
