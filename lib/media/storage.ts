import { config } from '../config.js';
import { ApiError } from '../http/api-error.js';
import { log } from '../log.js';

/**
 * Where processed images live. A stored image is known by its reference: a `/uploads/<name>`
 * path for local disk, or the image host's HTTPS URL. Listings and profiles keep references.
 */
export interface ImageStorage {
  /** Stores one processed WebP image and returns its reference. */
  save(image: Buffer): Promise<string>;
  /** Deletes a stored image; a reference this storage does not own is left alone. */
  remove(ref: string): Promise<void>;
  /** Reads a stored image's bytes (for posting it elsewhere). */
  read(ref: string): Promise<Buffer>;
  /** Whether the reference names an image kept by this storage. */
  owns(ref: string): boolean;
}

/** The storage new images go to, per `STORAGE_PROVIDER`. */
export async function currentImageStorage(): Promise<ImageStorage> {
  if (config().storageProvider === 'cloudinary') {
    const { cloudinaryStorage } = await import('./cloudinary-storage.js');
    return cloudinaryStorage();
  }
  const { localStorage } = await import('./local-storage.js');
  return localStorage();
}

/** The storage that keeps an existing reference, whichever provider is current. */
export async function storageFor(ref: string): Promise<ImageStorage | undefined> {
  const { localStorage } = await import('./local-storage.js');
  const local = localStorage();
  if (local.owns(ref)) return local;
  if (/^https?:\/\//.test(ref)) {
    const { cloudinaryStorage } = await import('./cloudinary-storage.js');
    const host = cloudinaryStorage();
    if (host.owns(ref)) return host;
  }
  return undefined;
}

/**
 * Stores a batch of processed images and returns their references in the same order. When any one
 * fails, the others of the batch are removed again and the request fails with 502.
 */
export async function storeImages(images: readonly Buffer[]): Promise<string[]> {
  if (images.length === 0) return [];
  const storage = await currentImageStorage();
  const results = await Promise.allSettled(images.map((image) => storage.save(image)));
  const stored = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (stored.length === images.length) return stored;
  const failure = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
  log.error('image upload failed', { error: failure.reason, stored: stored.length, requested: images.length });
  await removeImages(stored);
  throw new ApiError(502, 'Image upload failed');
}

/**
 * Deletes stored images, best-effort: a failure is logged and never thrown, because the write it
 * follows has already succeeded or already failed. References no storage owns are left alone.
 */
export async function removeImages(refs: Iterable<string>): Promise<void> {
  await Promise.all(
    [...new Set(refs)].map(async (ref) => {
      try {
        const storage = await storageFor(ref);
        if (storage) await storage.remove(ref);
        else log.warn('image reference not owned by any storage, left alone', { ref });
      } catch (error) {
        log.warn('could not delete a stored image', { ref, error });
      }
    }),
  );
}
