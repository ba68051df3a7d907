import type { PhotoRendition } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';
import type { DirectUploadCheck, DirectUploadResponse, DirectUploadTicket } from './direct-upload.js';
import type { DescribedImage, ProcessedImage } from './image-processing.js';
import type { PhotoRecord } from './photo-records.js';

/**
 * Where processed images live. A stored image is known by its reference: a `/uploads/<name>`
 * path for local disk, or the image host's HTTPS URL. Listings and profiles keep references.
 */
export interface ImageStorage {
  /**
   * Whether a photo's renditions are files this storage keeps, encoded at upload from the one
   * decode; otherwise the storage makes them on delivery, and encoding them would be wasted.
   */
  readonly keepsRenditionFiles: boolean;
  /**
   * Stores one processed WebP image with its renditions, all or nothing, and returns its reference
   * and what its answers show.
   */
  save(image: ProcessedImage): Promise<PhotoRecord>;
  /**
   * Keeps the renditions of an image stored before they existed, as `save` keeps an upload's: the
   * encoded copies where this storage keeps files, else those it makes on delivery for an image
   * this wide (again is harmless).
   */
  addRenditions(ref: string, image: Pick<DescribedImage, 'width' | 'renditions'>): Promise<PhotoRendition[]>;
  /** Deletes a stored image and its renditions; a reference this storage does not own is left alone. */
  remove(ref: string): Promise<void>;
  /** Reads a stored image's bytes (for posting it elsewhere). */
  read(ref: string): Promise<Buffer>;
  /** Whether the reference names an image kept by this storage. */
  owns(ref: string): boolean;
  /** Signed parameters for a client to upload images straight to this storage. */
  directUploadTicket(): DirectUploadTicket;
  /** Checks that a client's direct upload is an image this storage received for us, and gives its reference. */
  checkDirectUpload(upload: DirectUploadResponse): DirectUploadCheck;
  /** Removes an image a ticket made and no listing took (it may never have been uploaded). */
  discardDirectUpload(publicId: string): Promise<void>;
}

/** Local disk takes images only through the service, so it has no direct uploads. */
export function directUploadsUnavailable(): ApiError {
  return ApiError.of('NOT_CONFIGURED', 'Direct uploads need the image host, and this service stores images on local disk (STORAGE_PROVIDER=local): send the images as multipart files instead');
}
