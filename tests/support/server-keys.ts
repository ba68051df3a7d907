import crypto from 'node:crypto';

/**
 * A digest as the service keys it, worked out here from `JWT_SECRET` on its own: the key of a use is
 * the HMAC-SHA256 of its label under the secret, and the digest the HMAC-SHA256 of the text under that key.
 */
export function keyedDigest(label: string, text: string): string {
  const key = crypto.createHmac('sha256', process.env.JWT_SECRET!).update(label).digest();
  return crypto.createHmac('sha256', key).update(text).digest('hex');
}

/** A reset code as the service stores it. */
export function resetCodeDigest(code: string): string {
  return keyedDigest('reset codes', code);
}
