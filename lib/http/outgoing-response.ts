import { keepResponse, type Cacheable } from './cacheable-answer.js';
import type { OutgoingResponse } from './incoming-request.js';
import type { Reply } from './reply.js';

/**
 * The envelope step: a handler's reply as the response to send. A page, asset or stream goes as it is;
 * JSON is encoded, and a cacheable 200 is kept and sent with the CDN's headers, any other answer
 * `no-store`.
 */
export function encode(reply: Reply, headers: Record<string, string>, cacheable: Cacheable | undefined): OutgoingResponse {
  // An answer that varies by a header of its own (Accept) still varies by Origin too.
  const vary = [headers.Vary, reply.headers?.Vary].filter(Boolean).join(', ');
  Object.assign(headers, reply.headers);
  if (vary) headers.Vary = vary;
  if (reply.contentType) {
    headers['Content-Type'] = reply.contentType;
    return { status: reply.status, headers, body: reply.body as OutgoingResponse['body'] };
  }
  const body = JSON.stringify(reply.body);
  if (!cacheable || reply.status !== 200) {
    headers['Content-Type'] = 'application/json; charset=utf-8';
    headers['Cache-Control'] = 'no-store';
    return { status: reply.status, headers, body };
  }
  return keepResponse(body, headers, cacheable);
}
