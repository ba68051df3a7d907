import { config } from '../config.js';
import { getDb } from '../db/client.js';
import { ApiError } from '../http/api-error.js';
import { log } from '../log.js';
import type { DirectUploadResponse } from './direct-upload.js';
import { claimExpiredUploads } from './direct-upload-records.js';
import type { ProcessedImage } from './image-processing.js';
import type { ImageStorage } from './image-storage.js';
import { deletePhotoRecords, type PhotoRecord } from './photo-records.js';

/** The storage new images go to, per `STORAGE_PROVIDER`. */
export async function currentImageStorage(): Promise<ImageStorage> {
  if (config().storageProvider === 'cloudinary') {
    const { cloudinaryStorage } = await import('./cloudinary-storage.js');
    return cloudinaryStorage();
  }
  const { localStorage } = await import('./local-storage.js');
  return localStorage();
}

/** Whether new photos' renditions are encoded at upload: only where the current storage keeps them as files. */
export async function renditionFilesWanted(): Promise<boolean> {
  return (await currentImageStorage()).keepsRenditionFiles;
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

function uploadFailed(error: unknown, stored: number, requested: number): ApiError {
  log.error('image upload failed', { error, stored, requested });
  return new ApiError(502, 'Image upload failed');
}

/**
 * Stores a batch of processed images with their renditions and returns their records in the same
 * order. When any one fails (its renditions included), the others of the batch are removed again
 * and the request fails with 502, so no image is left half stored.
 */
export async function storeImages(images: readonly ProcessedImage[]): Promise<PhotoRecord[]> {
  if (images.length === 0) return [];
  const storage = await currentImageStorage();
  const results = await Promise.allSettled(images.map((image) => storage.save(image)));
  const stored = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (stored.length === images.length) return stored;
  const failure = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
  await removeImages(stored.map((record) => record.ref));
  throw uploadFailed(failure.reason, stored.length, images.length);
}

/**
 * Describes an image already stored: its size, placeholder and renditions (made now where the
 * storage keeps them as files), from its header and a reduced decode. An image whose shape an
 * upload would be refused for is refused the same way (400).
 */
export async function describeStoredImage(storage: ImageStorage, ref: string): Promise<PhotoRecord> {
  const { describeImage } = await import('./image-processing.js');
  const described = await describeImage(await storage.read(ref), { renditions: storage.keepsRenditionFiles });
  const renditions = await storage.addRenditions(ref, described);
  return { ref, width: described.width, height: described.height, placeholder: described.placeholder, renditions };
}

/** A refusal of the image's own (its shape, its format) names the upload at fault; anything else is the image host's failure. */
function describeFailure(error: unknown, field: string, upload: DirectUploadResponse, described: number, requested: number): ApiError {
  if (error instanceof ApiError && error.code === 'UNSUPPORTED_IMAGE') {
    return ApiError.of('UNSUPPORTED_IMAGE', error.message, [{ field, message: error.message, received: upload.secure_url }]);
  }
  return uploadFailed(error, described, requested);
}

/**
 * The direct uploads named by a write, each checked by the current storage and described. Any that
 * is not an image the image host received for us fails the whole write with 400, naming each one;
 * one the host cannot deliver for describing fails it with 502. Duplicates are looked for among the
 * checked references, which are canonical: the same upload sent under several URL variants is one
 * image named twice, and refused as such. They are described one after another, each in an image
 * slot, so a write naming ten large images holds the memory of one.
 */
export async function acceptDirectUploads(uploads: readonly DirectUploadResponse[], field: string): Promise<PhotoRecord[]> {
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
  const records: PhotoRecord[] = [];
  for (const [index, ref] of refs.entries()) {
    try {
      records.push(await describeStoredImage(storage, ref));
    } catch (error) {
      throw describeFailure(error, `${field}[${index}]`, uploads[index]!, records.length, refs.length);
    }
  }
  return records;
}

/**
 * Deletes stored images with their renditions and photo records, best-effort: a failure is logged
 * and never thrown, because the write it follows has already succeeded or already failed.
 * References no storage owns are left alone. Answers the references whose files could not be
 * deleted (deleting one already gone succeeds), for a caller that tries them again later.
 */
export async function removeStoredImages(refs: Iterable<string>): Promise<string[]> {
  const unique = [...new Set(refs)];
  if (unique.length === 0) return [];
  await deletePhotoRecords(await getDb(), unique).catch((error: unknown) => log.warn('could not delete photo records', { refs: unique, error }));
  const failed = await Promise.all(
    unique.map(async (ref) => {
      try {
        const storage = await storageFor(ref);
        if (storage) await storage.remove(ref);
        else log.warn('image reference not owned by any storage, left alone', { ref });
        return [];
      } catch (error) {
        log.warn('could not delete a stored image', { ref, error });
        return [ref];
      }
    }),
  );
  return failed.flat();
}

/** removeStoredImages(), for callers that leave a failure at the log. */
export async function removeImages(refs: Iterable<string>): Promise<void> {
  await removeStoredImages(refs);
}

/**
 * Removes, from the image host, images whose ticket is over a day old and that no listing took
 * (the sweeper does this); answers how many. Failures are logged and the records are gone either way.
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
