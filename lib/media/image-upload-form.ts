import type { FormSpec } from '../http/multipart.js';
import type { ProcessedImage } from './image-processing.js';

export interface ImageUploadLimits {
  /** Form fields that carry images. */
  fileFields: readonly string[];
  maxFiles: number;
  maxFileBytes: number;
  /** Whether each image also gets the smaller renditions a listing photo is shown at (encoded here where the storage keeps them as files). */
  renditions: boolean;
}

/**
 * The form spec of an image upload: each file is processed as it streams in, and nothing is stored
 * here; the handler stores the processed images once the whole request has been validated. The
 * image library is loaded with the first file, so the reads a function also serves never load it.
 */
export function imageUploadForm(limits: ImageUploadLimits): FormSpec<ProcessedImage> {
  return {
    fileFields: limits.fileFields,
    maxFiles: limits.maxFiles,
    maxFileBytes: limits.maxFileBytes,
    processFile: async (file) => {
      const [{ processImage }, { renditionFilesWanted }] = await Promise.all([import('./image-processing.js'), import('./storage.js')]);
      return processImage(file.stream, { renditions: limits.renditions && (await renditionFilesWanted()) });
    },
  };
}

/** Listing photos: up to 10 files of at most 10 MB, in the `images` field. */
export const LISTING_IMAGE_LIMITS: ImageUploadLimits = { fileFields: ['images'], maxFiles: 10, maxFileBytes: 10 * 1024 * 1024, renditions: true };

/** A profile photo: one file of at most 5 MB, in the `profileImage` field. */
export const PROFILE_IMAGE_LIMITS: ImageUploadLimits = { fileFields: ['profileImage'], maxFiles: 1, maxFileBytes: 5 * 1024 * 1024, renditions: false };
