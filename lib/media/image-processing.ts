import type { Readable } from 'node:stream';
import sharp, { type ResizeOptions, type Sharp } from 'sharp';
import { ApiError } from '../http/api-error.js';
import { log } from '../log.js';
import { acceptedShape, decodeFailure, MAX_INPUT_PIXELS, MAX_STORED_HEIGHT, MAX_STORED_WIDTH, unsupportedImage } from './image-shape.js';
import { encodeRenditions, encodeWebp, PLACEHOLDER_SIZE, placeholderOf, type DecodedPixels, type EncodedRendition } from './photo-encoding.js';
import { renditionWidthsFor } from './photo-renditions.js';
import { createProcessingSlots } from './processing-slots.js';

// One libvips thread per image and no operation cache: memory follows the images in flight only.
sharp.concurrency(1);
sharp.cache(false);

export const WEBP_QUALITY = 80;

/**
 * Images decoded at once in this process, uploads and stored images being described alike. A large
 * photo takes tens of MB while it is resized, and an upload waiting for a slot is left unread, so
 * the request waits on the network (busboy applies backpressure) instead of piling up in memory.
 */
const slots = createProcessingSlots(2);

/** What a listing photo's answers show beside it, made from one decode. */
export interface DescribedImage {
  width: number;
  height: number;
  /** The ThumbHash placeholder, standard base64. */
  placeholder: string;
  /** Smaller WebP copies, narrowest first (none when not asked for, or for a narrow image). */
  renditions: EncodedRendition[];
}

export interface ProcessedImage extends DescribedImage {
  /** The WebP bytes, ready to store. */
  data: Buffer;
}

export interface ProcessingOptions {
  /** Whether to make the smaller copies a listing photo is shown at. */
  renditions: boolean;
}

/** An encoder's refusal is the image's fault (its size or content), answered as such and never as a 500. */
function encodingFailure(error: unknown): ApiError {
  log.warn('an image could not be encoded', { error });
  return unsupportedImage();
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

/** Decodes upright (EXIF orientation applied) and resized into `box`, never enlarged. */
async function decodeInto(image: Sharp, box: ResizeOptions): Promise<DecodedPixels> {
  const { data, info } = await image
    .rotate()
    .resize({ ...box, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch((error: unknown) => {
      throw decodeFailure(error);
    });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/**
 * Streams one upload into sharp and re-encodes it: its shape checked from the header before any
 * pixel is decoded, EXIF orientation applied, fit within MAX_STORED_WIDTH x MAX_STORED_HEIGHT,
 * WebP at quality 80, metadata dropped (sharp keeps none unless asked); with its placeholder and,
 * when asked, its renditions, all from one decode.
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
  acceptedShape(header);
  // Decoded once: the stored image, its renditions and its placeholder are all made from these pixels.
  const decoded = await decodeInto(image, { width: MAX_STORED_WIDTH, height: MAX_STORED_HEIGHT, fit: 'inside' });
  // One after another: each encoder holds buffers of its own, and memory per upload stays that of one.
  try {
    const data = await encodeWebp(decoded, WEBP_QUALITY);
    const renditions = options.renditions ? await encodeRenditions(decoded, renditionWidthsFor(decoded.width)) : [];
    const placeholder = await placeholderOf(decoded);
    return { data, width: decoded.width, height: decoded.height, placeholder, renditions };
  } catch (error) {
    throw encodingFailure(error);
  }
}

/**
 * Describes an image already stored (a direct upload, or one stored before photos were described)
 * in an image slot: its shape read from the header and refused as an upload's would be, then only
 * as many pixels decoded as its outputs need (sharp shrinks JPEG and WebP as it loads them): its
 * widest rendition when renditions are asked for, else the placeholder's 100x100.
 */
export function describeImage(bytes: Buffer, options: ProcessingOptions): Promise<DescribedImage> {
  return slots.run(async () => {
    const header = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
      .metadata()
      .catch((error: unknown) => {
        throw decodeFailure(error);
      });
    const shape = acceptedShape(header);
    const widths = options.renditions ? renditionWidthsFor(shape.width) : [];
    const box: ResizeOptions = widths.length > 0 ? { width: Math.max(...widths) } : { width: PLACEHOLDER_SIZE, height: PLACEHOLDER_SIZE, fit: 'inside' };
    const pixels = await decodeInto(sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }), box);
    try {
      const renditions = await encodeRenditions(pixels, widths);
      const placeholder = await placeholderOf(pixels);
      return { width: shape.width, height: shape.height, placeholder, renditions };
    } catch (error) {
      throw encodingFailure(error);
    }
  });
}
