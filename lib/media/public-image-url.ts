import { config } from '../config.js';

/**
 * A stored image reference as every answer shows it: a local path (`/uploads/...`) becomes
 * an absolute URL on API_BASE_URL, so a client on any origin can load it; an image host URL is
 * absolute already and stays as it is. Stored references themselves never change.
 */
export function publicImageUrl(ref: string): string {
  if (/^https?:\/\//i.test(ref)) return ref;
  return `${config().apiBaseUrl}${ref.startsWith('/') ? '' : '/'}${ref}`;
}
