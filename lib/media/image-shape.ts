import type { Metadata } from 'sharp';
import { ApiError } from '../http/api-error.js';

/**
 * Decompression bombs: a small file declaring a huge canvas is refused from its header, before any
 * pixel is decoded. 50 megapixels still admits the largest ordinary phone photos.
 */
export const MAX_INPUT_PIXELS = 50_000_000;
/**
 * The longest side an image may have. A strip of few pixels can stay under the pixel limit while
 * being far too long for a listing photo (and for the WebP format, at most 16,383 px a side).
 */
export const MAX_IMAGE_SIDE = 12_000;
/** How many times its shorter side an image's longer side may be: panoramas yes, strips no. */
export const MAX_ASPECT_RATIO = 8;

/**
 * The box a stored photo fits in, never enlarged: the storefront's widest view, and twice as tall
 * for portraits. A long strip (up to 1:8) is stored narrower rather than taller.
 */
export const MAX_STORED_WIDTH = 1200;
export const MAX_STORED_HEIGHT = 2400;

/** Raster formats a photo arrives in; vector and document formats (SVG, PDF) are not images to resize. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'heif', 'tiff']);

/** An image's format and its size as it is shown: EXIF orientation applied. */
export interface ImageShape {
  format: string;
  width: number;
  height: number;
}

export function unsupportedImage(): ApiError {
  return ApiError.of('UNSUPPORTED_IMAGE', 'Unsupported image file');
}

function tooManyPixels(): ApiError {
  return ApiError.of('UNSUPPORTED_IMAGE', `Image dimensions are too large: at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels`);
}

/** sharp refuses an over-large canvas from its header, in metadata() as in the pipeline. */
export function decodeFailure(error: unknown): ApiError {
  return error instanceof Error && /pixel limit/i.test(error.message) ? tooManyPixels() : unsupportedImage();
}

/**
 * The shape an image's header declares, or the 400 that refuses it: not a photo format, more
 * pixels than the limit, a side longer than MAX_IMAGE_SIDE, or sides further apart than
 * MAX_ASPECT_RATIO. Read before any pixel is decoded.
 */
export function acceptedShape(header: Metadata): ImageShape {
  if (!header.format || !ACCEPTED_FORMATS.has(header.format) || !header.width || !header.height) throw unsupportedImage();
  const { width, height } = header.autoOrient;
  if (width * height > MAX_INPUT_PIXELS) throw tooManyPixels();
  const longer = Math.max(width, height);
  const shorter = Math.min(width, height);
  if (longer > MAX_IMAGE_SIDE) {
    throw ApiError.of('UNSUPPORTED_IMAGE', `Image dimensions are too large: at most ${MAX_IMAGE_SIDE} px on the longest side`);
  }
  if (longer > shorter * MAX_ASPECT_RATIO) {
    throw ApiError.of('UNSUPPORTED_IMAGE', `Image proportions are not supported: the longer side may be at most ${MAX_ASPECT_RATIO} times the shorter`);
  }
  return { format: header.format, width, height };
}
