import crypto from 'node:crypto';

/**
 * A weak entity tag over an encoded body. Weak, because a CDN that compresses the body keeps it
 * valid for every content coding (a strong one would have to change with each); a digest, because
 * the same answer is then the same tag on every function instance.
 */
export function entityTagOf(body: string | Buffer): string {
  return `W/"${crypto.createHash('sha1').update(body).digest('base64url')}"`;
}

const opaquePart = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/**
 * Whether a GET or HEAD request's `If-None-Match` names the current answer (RFC 9110, 13.1.2):
 * `*`, or a list of entity tags one of which equals `current` by weak comparison (the `W/`
 * prefix ignored). Anything that is not a list of quoted tags names nothing.
 */
export function ifNoneMatchNames(ifNoneMatch: string | undefined, current: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const listed = ifNoneMatch.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return listed.some((tag) => opaquePart(tag) === opaquePart(current));
}
