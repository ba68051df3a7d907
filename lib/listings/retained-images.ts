import { ApiError } from '../http/api-error.js';
import { publicImageUrl } from '../media/public-image-url.js';

/** Which stored image an `existingImages` entry names: the entry as stored, or as answers show it (an absolute URL). */
function storedImageNamed(stored: readonly string[], name: string): string | undefined {
  return stored.find((ref) => ref === name || publicImageUrl(ref) === name);
}

/**
 * The listing's stored images that `existingImages` keeps, in its order. Entries are matched
 * against the listing's own images only, so another listing's image or a URL of any other origin
 * names nothing and is refused.
 */
export function retainedImages(stored: readonly string[], names: readonly string[]): string[] {
  const kept: string[] = [];
  for (const name of names) {
    const ref = storedImageNamed(stored, name);
    if (ref === undefined) {
      throw ApiError.badRequest('existingImages may only list images the listing has', [
        { field: 'existingImages', message: 'is not an image of this listing', received: name },
      ]);
    }
    if (kept.includes(ref)) {
      throw ApiError.badRequest('existingImages must not list an image twice', [
        { field: 'existingImages', message: 'names an image already listed', received: name },
      ]);
    }
    kept.push(ref);
  }
  return kept;
}
