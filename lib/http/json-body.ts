import type { IncomingMessage } from 'node:http';
import { ApiError } from './api-error.js';

export const JSON_BODY_LIMIT = 1024 * 1024;

export function contentTypeOf(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

async function readLimited(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new ApiError(413, `Request body too large: at most ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new ApiError(413, `Request body too large: at most ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Reads a JSON request body; an absent body reads as `{}` so that validation names the missing fields. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  if (!hasBody(req)) return {};
  const type = contentTypeOf(req);
  if (type !== 'application/json' && !type.endsWith('+json')) {
    req.resume();
    throw new ApiError(415, 'Content-Type must be application/json');
  }
  const raw = await readLimited(req, JSON_BODY_LIMIT);
  if (raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw ApiError.badRequest('Malformed JSON body');
  }
}
