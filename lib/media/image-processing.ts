import type { Readable } from 'node:stream';
import sharp, { type Sharp } from 'sharp';
import { ApiError } from '../http/api-error.js';
import { encodeRenditions, encodeWebp, placeholderOf, type DecodedPixels, type EncodedRendition } from './photo-encoding.js';
import { createProcessingSlots } from './processing-slots.js';

// One libvips thread per image and no operation cache: memory follows the images in flight only.
sharp.concurrency(1);
sharp.cache(false);

export const MAX_IMAGE_WIDTH = 1200;
export const WEBP_QUALITY = 80;
/**
 * Decompression bombs: a small file declaring a huge canvas is refused from its header, before any
 * pixel is decoded. 50 megapixels still admits the largest ordinary phone photos.
 */
export const MAX_INPUT_PIXELS = 50_000_000;

/** Raster formats a photo arrives in; vector and document formats (SVG, PDF) are not images to resize. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'heif', 'tiff']);

/**
 * Uploads read and re-encoded at once in this process. A large photo takes tens of MB while it is
 * resized, and one waiting for a slot is left unread, so the request waits on the network (busboy
 * applies backpressure) instead of piling up in memory.
 */
const slots = createProcessingSlots(2);

export interface ProcessedImage {
  /** The WebP bytes, ready to store. */
  data: Buffer;
  width: number;
  height: number;
  /** The ThumbHash placeholder, standard base64. */
  placeholder: string;
  /** Smaller WebP copies, narrowest first (none when not asked for, or for a narrow image). */
  renditions: EncodedRendition[];
}

export interface ProcessingOptions {
  /** Whether to make the smaller copies a listing photo is shown at. */
  renditions: boolean;
}

function unsupportedImage(): ApiError {
  return ApiError.of('UNSUPPORTED_IMAGE', 'Unsupported image file');
}

function tooManyPixels(): ApiError {
  return ApiError.of('UNSUPPORTED_IMAGE', `Image dimensions are too large: at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels`);
}

/** sharp refuses an over-large canvas from its header, in metadata() as in the pipeline. */
function decodeFailure(error: unknown): ApiError {
  return error instanceof Error && /pixel limit/i.test(error.message) ? tooManyPixels() : unsupportedImage();
}

/** Resolves once the whole upload has been handed to sharp, which collects it for decoding. */
function receive(stream: Readable, image: Sharp): Promise<void> {
  return new Promise((resolve, reject) => {
    image.once('finish', resolve);
    image.once('error', reject);
    stream.once('error', reject);
    stream.pipe(image);
  });
}

/**
 * Streams one upload into sharp and re-encodes it: EXIF orientation applied, at most 1200 px wide
 * (never enlarged), WebP at quality 80, metadata dropped (sharp keeps none unless asked); with its
 * placeholder and, when asked, its renditions, all from one decode.
 */
export function processImage(stream: Readable, options: ProcessingOptions): Promise<ProcessedImage> {
  // The request may fail (aborted, malformed) while the upload waits for a slot.
  let failedWhileWaiting = false;
  const noteFailure = () => {
    failedWhileWaiting = true;
  };
  stream.once('error', noteFailure);
  return slots.run(async () => {
    stream.off('error', noteFailure);
    if (failedWhileWaiting || stream.destroyed) throw unsupportedImage();
    return reencode(stream, options);
  });
}

async function reencode(stream: Readable, options: ProcessingOptions): Promise<ProcessedImage> {
  const image = sharp({ limitInputPixels: MAX_INPUT_PIXELS });
  await receive(stream, image).catch(() => {
    throw unsupportedImage();
  });
  // Over the size limit busboy cuts the file short; the form reports that, no need to decode it.
  if ((stream as Readable & { truncated?: boolean }).truncated) throw ApiError.badRequest('File is too large');
  const header = await image.metadata().catch((error: unknown) => {
    throw decodeFailure(error);
  });
  if (!header.format || !ACCEPTED_FORMATS.has(header.format)) throw unsupportedImage();
  if (header.width * header.height > MAX_INPUT_PIXELS) throw tooManyPixels();
  // Decoded once: the stored image, its renditions and its placeholder are all made from these pixels.
  const { data: pixels, info } = await image
    .rotate()
    .resize({ width: MAX_IMAGE_WIDTH, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch((error: unknown) => {
      throw decodeFailure(error);
    });
  const decoded = { data: pixels, width: info.width, height: info.height, channels: info.channels };
  // One after another: each encoder holds buffers of its own, and memory per upload stays that of one.
  const data = await encodeWebp(decoded, WEBP_QUALITY);
  const renditions = options.renditions ? await encodeRenditions(decoded) : [];
  const placeholder = await placeholderOf(decoded);
  return { data, width: info.width, height: info.height, placeholder, renditions };
}

/**
 * Decodes an image already stored once, upright (EXIF orientation applied, as browsers show it),
 * to describe it after the fact. Adopted images may be of any size, so the pixel limit holds here too.
 */
export async function decodeStoredImage(image: Buffer): Promise<DecodedPixels> {
  const { data, info } = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS }).rotate().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}
