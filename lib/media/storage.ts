import { config } from '../config.js';
import { getDb } from '../db/client.js';
import { ApiError } from '../http/api-error.js';
import { log } from '../log.js';
import type { DirectUploadResponse } from './direct-upload.js';
import { claimExpiredUploads } from './direct-upload-records.js';
import type { ImageStorage } from './image-storage.js';

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
 * The references of direct uploads named by a write, each checked by the current storage. Any that
 * is not an image the image host received for us fails the whole write with 400, naming each one.
 * Duplicates are looked for among the checked references, which are canonical: the same upload
 * sent under several URL variants is one image named twice, and refused as such.
 */
export async function acceptDirectUploads(uploads: readonly DirectUploadResponse[], field: string): Promise<string[]> {
  if (uploads.length === 0) return [];
  const storage = await currentImageStorage();
  const checks = uploads.map((upload) => storage.checkDirectUpload(upload));
  const problems = checks.flatMap((check, index) =>
    'problem' in check ? [{ field: `${field}[${index}]`, message: check.problem, received: uploads[index]!.public_id }] : [],
  );
  if (problems.length > 0) throw ApiError.badRequest(`${field} may only name images uploaded to the image host with this service's signature`, problems);
  const refs = checks.map((check) => (check as { ref: string }).ref);
  const repeats = refs.flatMap((ref, index) =>
    refs.indexOf(ref) < index ? [{ field: `${field}[${index}]`, message: 'names an image already named', received: uploads[index]!.secure_url }] : [],
  );
  if (repeats.length > 0) throw ApiError.badRequest(`${field} must not name an image twice`, repeats);
  return refs;
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

/**
 * Removes, from the image host, images whose ticket is over a day old and that no listing took
 * (the sweeper, D33); answers how many. Failures are logged and the records are gone either way.
 */
export async function removeUnattachedUploads(limit = 50): Promise<number> {
  const publicIds = await claimExpiredUploads(await getDb(), limit);
  if (publicIds.length === 0) return 0;
  const storage = await currentImageStorage();
  await Promise.all(
    publicIds.map((publicId) => storage.discardDirectUpload(publicId).catch((error: unknown) => log.warn('could not remove an unattached upload', { publicId, error }))),
  );
  return publicIds.length;
}
