import { ApiError } from './api-error.js';
import { contentTypeOf, discardBody, type IncomingRequest } from './incoming-request.js';

export const JSON_BODY_LIMIT = 1024 * 1024;

export function hasBody(request: IncomingRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return request.headers['transfer-encoding'] !== undefined;
}

/** The whole body, refused with 413 as soon as it is known to pass `limit` bytes. */
export async function readLimited(request: IncomingRequest, limit: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) throw new ApiError(413, `Request body too large: at most ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new ApiError(413, `Request body too large: at most ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Reads a JSON request body; an absent body reads as `{}` so that validation names the missing fields. */
export async function readJsonBody(request: IncomingRequest): Promise<unknown> {
  if (!hasBody(request)) return {};
  const type = contentTypeOf(request);
  if (type !== 'application/json' && !type.endsWith('+json')) {
    discardBody(request);
    throw new ApiError(415, 'Content-Type must be application/json');
  }
  const raw = await readLimited(request, JSON_BODY_LIMIT);
  if (raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw ApiError.of('MALFORMED_BODY', 'Malformed JSON body');
  }
}
