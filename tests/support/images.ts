import fs from 'node:fs';
import zlib from 'node:zlib';
import sharp from 'sharp';

/**
 * A 300x200 JPEG whose EXIF orientation (6) says "rotate 90° clockwise to view": shown upright it is
 * 200 wide and 300 high. The left half is red, so the rotation can be seen in the pixels.
 */
export async function jpegWithOrientation(): Promise<Buffer> {
  const left = await sharp({ create: { width: 150, height: 200, channels: 3, background: '#ff0000' } }).png().toBuffer();
  return sharp({ create: { width: 300, height: 200, channels: 3, background: '#0000ff' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** Raw RGB pixels: a gradient under pseudo-random grain, like a photo, which JPEG cannot squeeze much. */
function photoLikePixels(width: number, height: number, grain: number): Buffer {
  const pixels = Buffer.allocUnsafe(width * height * 3);
  let state = 0x2545f491;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      const base = [(x * 255) / width, (y * 255) / height, 128];
      for (let channel = 0; channel < 3; channel += 1) {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        const noise = ((state >>> 24) / 255 - 0.5) * grain;
        pixels[offset + channel] = Math.max(0, Math.min(255, Math.round(base[channel]! + noise)));
      }
    }
  }
  return pixels;
}

function photoLikeJpeg(width: number, height: number, grain: number, quality: number) {
  return sharp(photoLikePixels(width, height, grain), { raw: { width, height, channels: 3 } }).jpeg({ quality });
}

/** A 4000x3000 camera-like JPEG carrying EXIF to be stripped. */
export function largeJpeg(): Promise<Buffer> {
  return photoLikeJpeg(4000, 3000, 40, 80)
    .withExif({ IFD0: { Copyright: 'Test camera', Make: 'Test' } })
    .toBuffer();
}

/** A valid JPEG of exactly `bytes` bytes: a photo-like image, padded after its end marker (decoders stop there). */
export async function jpegOfSize(bytes: number): Promise<Buffer> {
  const image = await photoLikeJpeg(2000, 1500, 255, 95).toBuffer();
  if (image.length > bytes) throw new Error(`base JPEG is ${image.length} bytes, more than ${bytes}`);
  return Buffer.concat([image, Buffer.alloc(bytes - image.length)]);
}

/** A small PNG with transparency. */
export function smallPng(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 4, background: { r: 0, g: 128, b: 0, alpha: 0.5 } } })
    .png()
    .toBuffer();
}

/** Text pretending to be a photo. */
export function notAnImage(): Buffer {
  return Buffer.from('This is a plain text file, not a photo.\n'.repeat(20));
}

/** An SVG: decodable by sharp, but not a photo format the service accepts. */
export function svgImage(): Buffer {
  return Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100" fill="red"/></svg>');
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG of a few hundred bytes whose header declares `width` x `height` pixels, with only its first
 * row of data: what a service that decodes before it checks the declared size pays for in full.
 */
export function pngDeclaring(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const firstRow = zlib.deflateSync(Buffer.alloc(width * 3 + 1));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', firstRow),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A decompression bomb: a PNG declaring 30000x30000 pixels (900 megapixels, about 2.7 GB decoded). */
export function decompressionBomb(): Buffer {
  return pngDeclaring(30_000, 30_000);
}

/** A real image of one colour, in `format`, optionally carrying an EXIF orientation (1-8). */
export function plainImage(width: number, height: number, format: 'png' | 'jpeg' | 'webp', orientation?: number): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: '#3a6ea5' } }).toFormat(format);
  return (orientation ? image.withMetadata({ orientation }) : image).toBuffer();
}

export async function imageInfo(bytes: Buffer) {
  return sharp(bytes).metadata();
}

/** The stored images in the upload folder (none when it was never created); renditions live in its subfolders. */
export function storedFiles(uploadDir: string): string[] {
  if (!fs.existsSync(uploadDir)) return [];
  return fs
    .readdirSync(uploadDir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
}

/** A multipart form with text fields and image files (all in `images` unless named otherwise). */
export function imageForm(fields: Record<string, string>, files: Array<Buffer | { field?: string; bytes: Buffer; name?: string; type?: string }> = []): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  files.forEach((file, index) => {
    const spec = Buffer.isBuffer(file) ? { bytes: file } : file;
    form.append(spec.field ?? 'images', new Blob([spec.bytes], { type: spec.type ?? 'image/jpeg' }), spec.name ?? `photo-${index + 1}.jpg`);
  });
  return form;
}
