import sharp from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';

/** ThumbHash encodes an image of at most 100x100 pixels. */
export const PLACEHOLDER_SIZE = 100;
const RENDITION_QUALITY = 80;

/** Pixels decoded once, from which every output of one photo is made. */
export interface DecodedPixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

export interface EncodedRendition {
  width: number;
  data: Buffer;
}

function fromPixels(pixels: DecodedPixels) {
  return sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels } });
}

/** The ThumbHash of the pixels, as standard base64: a blurred stand-in a client draws while the photo loads. */
export async function placeholderOf(pixels: DecodedPixels): Promise<string> {
  const { data, info } = await fromPixels(pixels)
    .resize({ width: PLACEHOLDER_SIZE, height: PLACEHOLDER_SIZE, fit: 'inside', withoutEnlargement: true })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
}

/** WebP copies of the pixels at each of `widths` (none wider than the pixels), in that order. */
export async function encodeRenditions(pixels: DecodedPixels, widths: readonly number[]): Promise<EncodedRendition[]> {
  const renditions: EncodedRendition[] = [];
  for (const width of widths) {
    const { data, info } = await fromPixels(pixels).resize({ width }).webp({ quality: RENDITION_QUALITY }).toBuffer({ resolveWithObject: true });
    renditions.push({ width: info.width, data });
  }
  return renditions;
}

/** The pixels as the stored WebP image. */
export async function encodeWebp(pixels: DecodedPixels, quality: number): Promise<Buffer> {
  return fromPixels(pixels).webp({ quality }).toBuffer();
}

