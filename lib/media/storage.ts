import { config } from '../config.js';

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
