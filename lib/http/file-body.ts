import { ApiError } from './api-error.js';
import { contentTypeOf, discardBody, type IncomingRequest } from './incoming-request.js';
import { hasBody, readLimited } from './json-body.js';
import { readForm, type FormSpec } from './multipart.js';

/** A request that carries one file: as the whole body, of its media type, or as one field of a multipart form. */
export interface FileBodySpec {
  /** The file's media type, as the body's Content-Type (`text/csv`). */
  mediaType: string;
  /** The multipart field that may carry it instead. */
  formField: string;
  /** Larger files are refused with 413, either way they come. */
  maxBytes: number;
  /** What the file holds, for the API document. */
  description: string;
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function multipartSpec(spec: FileBodySpec): FormSpec<Buffer> {
  return { fileFields: [spec.formField], maxFiles: 1, maxFileBytes: spec.maxBytes, oversizeStatus: 413, processFile: (file) => collect(file.stream) };
}

/**
 * Reads the file a request carries: the body itself, or the form's one file field (a form carries
 * nothing else). No body reads as an empty file, which the handler judges; any other type is 415.
 */
export async function readFileBody(request: IncomingRequest, spec: FileBodySpec): Promise<Buffer> {
  const type = contentTypeOf(request);
  if (type === spec.mediaType) return readLimited(request, spec.maxBytes);
  if (type === 'multipart/form-data') {
    const { files } = await readForm(request, multipartSpec(spec), new Set());
    const file = files[0];
    if (!file) throw ApiError.badRequest(`Missing required fields: ${spec.formField}`, [{ field: spec.formField, message: 'is required' }]);
    return file.value;
  }
  if (!hasBody(request)) return Buffer.alloc(0);
  discardBody(request);
  throw new ApiError(415, `Content-Type must be ${spec.mediaType} or multipart/form-data`);
}
