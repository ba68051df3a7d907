import { inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { thumbHashToApproximateAspectRatio } from 'thumbhash';
import { expect } from 'vitest';
import type { Database } from '../../lib/db/client.js';
import { photos } from '../../lib/db/schema.js';

/** A JPEG of exactly this size: a gradient, so every copy of it decodes to something photo-like. */
export function jpegOf(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) pixels.set([(x * 255) / width, (y * 255) / height, 96], (y * width + x) * 3);
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

/** A WebP of this size, as this service stored images before photos were described. */
export function webpOf(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#808040' } }).webp({ quality: 80 }).toBuffer();
}

/** `"<url> 320w, <url> 640w"` -> its candidates. */
export function srcsetCandidates(srcset: string): Array<{ url: string; width: number }> {
  return srcset.split(', ').map((candidate) => {
    const [url, descriptor] = candidate.split(' ');
    expect(descriptor).toMatch(/^\d+w$/);
    return { url: url!, width: Number.parseInt(descriptor!, 10) };
  });
}

/** Fetches every copy a srcset names and checks that each is as wide as its descriptor says. */
export async function expectSrcsetTrue(srcset: string): Promise<Array<{ url: string; width: number; cacheControl: string | null }>> {
  const fetched = [];
  for (const { url, width } of srcsetCandidates(srcset)) {
    const response = await fetch(url);
    expect(response.status, url).toBe(200);
    const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect({ url, width: metadata.width }).toEqual({ url, width });
    fetched.push({ url, width, cacheControl: response.headers.get('cache-control') });
  }
  return fetched;
}

/** The ThumbHash's aspect ratio, within the precision it keeps (its grid is at most 7 cells a side). */
export function expectPlaceholderAspect(placeholder: string, width: number, height: number): void {
  const ratio = thumbHashToApproximateAspectRatio(Buffer.from(placeholder, 'base64'));
  expect(Math.abs(ratio - width / height) / (width / height)).toBeLessThan(0.2);
}

export async function photoRecordsOf(db: Database, refs: string[]) {
  if (refs.length === 0) return [];
  return db.select().from(photos).where(inArray(photos.ref, refs));
}
