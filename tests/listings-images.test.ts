import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { listings } from '../lib/db/schema.js';
import { buildListing } from './support/catalog-factories.js';
import { useShop } from './support/shop.js';
import {
  decompressionBomb,
  imageForm,
  imageInfo,
  jpegOfSize,
  jpegWithOrientation,
  largeJpeg,
  notAnImage,
  plainImage,
  pngDeclaring,
  smallPng,
  storedFiles,
  svgImage,
} from './support/images.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
const shop = useShop(server);
let photo: Buffer;
let png: Buffer;

const attributes = JSON.stringify({ brand: 'Apple', model: 'iPhone 15', storage: '128GB' });

beforeAll(async () => {
  photo = await largeJpeg();
  png = await smallPng();
});

function listingFields(title: string, extra: Record<string, string> = {}): Record<string, string> {
  return { title, price: '100', categoryId: shop.category.id, attributes, ...extra };
}

async function listingsTitled(title: string) {
  return server.db.select().from(listings).where(eq(listings.title, title));
}

async function storedImagesOf(id: string): Promise<string[]> {
  const [row] = await server.db.select({ images: listings.images }).from(listings).where(eq(listings.id, id));
  return row!.images;
}

const fileNames = (refs: string[]) => refs.map((ref) => path.basename(ref)).sort();

/** A local image as answers show it: absolute on API_BASE_URL, here the test server's URL. */
const answered = (ref: string) => `${server.baseUrl}${ref}`;

async function createWithImages(title: string, files: Buffer[]): Promise<{ id: string; images: string[] }> {
  const response = await api.post('/api/listings', { token: shop.agent.token, form: imageForm(listingFields(title), files) });
  expect(response.status).toBe(201);
  return response.body.data;
}

/** Makes every write to a listing with this title fail inside the database, after its images were stored. */
async function failWritesOfTitle(title: string): Promise<void> {
  await server.db.execute(
    sql.raw(`create or replace function refuse_listing_write() returns trigger language plpgsql as $$
      begin
        if new.title = '${title}' then raise exception 'write refused for this test'; end if;
        return new;
      end $$`),
  );
  await server.db.execute(sql.raw('drop trigger if exists refuse_listing_write on listings'));
  await server.db.execute(
    sql.raw('create trigger refuse_listing_write before insert or update on listings for each row execute function refuse_listing_write()'),
  );
}

describe('image processing', () => {
  it('stores uploads as WebP at most 1200 px wide under /uploads, and answers their absolute URLs', async () => {
    const listing = await createWithImages('Processed', [photo, png]);
    expect(listing.images).toHaveLength(2);
    const stored = await storedImagesOf(listing.id);
    for (const ref of stored) expect(ref).toMatch(/^\/uploads\/[0-9a-f-]{36}\.webp$/);
    expect(stored.map(answered)).toEqual(listing.images);
    expect(storedFiles(server.uploadDir)).toEqual(fileNames(listing.images));

    const [large, small] = await Promise.all(
      listing.images.map(async (url) => {
        const response = await fetch(url);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/webp');
        return imageInfo(Buffer.from(await response.arrayBuffer()));
      }),
    );
    expect(large).toMatchObject({ format: 'webp', width: 1200, height: 900 });
    expect(large!.exif).toBeUndefined();
    expect(small).toMatchObject({ format: 'webp', width: 640, height: 480, hasAlpha: true });
  });

  it('turns a photo upright by its EXIF orientation and drops the tag', async () => {
    const listing = await createWithImages('Upright', [await jpegWithOrientation()]);
    const stored = fs.readFileSync(path.join(server.uploadDir, path.basename(listing.images[0]!)));
    const info = await imageInfo(stored);
    expect(info).toMatchObject({ format: 'webp', width: 200, height: 300 });
    expect(info.orientation).toBeUndefined();
    const { data } = await sharp(stored).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * 200 + x) * 3, (y * 200 + x) * 3 + 3)];
    // The red left half of the sensor image is the top half once turned upright.
    expect(pixel(100, 60)[0]).toBeGreaterThan(200);
    expect(pixel(100, 240)[2]).toBeGreaterThan(200);
  });

  it('accepts ten images of nearly 10 MB each in one request', async () => {
    const nearlyTenMegabytes = await jpegOfSize(10 * 1024 * 1024 - 64 * 1024);
    const before = storedFiles(server.uploadDir).length;
    const listing = await createWithImages('Ten large photos', Array(10).fill(nearlyTenMegabytes));
    expect(listing.images).toHaveLength(10);
    expect(new Set(listing.images).size).toBe(10);
    expect(storedFiles(server.uploadDir)).toHaveLength(before + 10);
    const info = await imageInfo(fs.readFileSync(path.join(server.uploadDir, path.basename(listing.images[9]!))));
    expect(info).toMatchObject({ format: 'webp', width: 1200 });
  }, 120_000);
});

describe('refused uploads leave no listing and no file', () => {
  const expectNothingStored = async (title: string, filesBefore: string[]) => {
    expect(await listingsTitled(title)).toHaveLength(0);
    expect(storedFiles(server.uploadDir)).toEqual(filesBefore);
  };

  it('refuses a file that is not an image', async () => {
    const before = storedFiles(server.uploadDir);
    const response = await api.post('/api/listings', { token: shop.agent.token, form: imageForm(listingFields('Text file'), [png, notAnImage()]) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, code: 'UNSUPPORTED_IMAGE', error: 'Unsupported image file' });
    await expectNothingStored('Text file', before);
  });

  it('refuses an SVG, which is not a photo format', async () => {
    const before = storedFiles(server.uploadDir);
    const response = await api.post('/api/listings', {
      token: shop.agent.token,
      form: imageForm(listingFields('Vector'), [{ bytes: svgImage(), name: 'logo.svg', type: 'image/svg+xml' }]),
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Unsupported image file');
    await expectNothingStored('Vector', before);
  });

  it('refuses a decompression bomb from its header', async () => {
    const before = storedFiles(server.uploadDir);
    const response = await api.post('/api/listings', {
      token: shop.agent.token,
      form: imageForm(listingFields('Bomb'), [{ bytes: decompressionBomb(), name: 'bomb.png', type: 'image/png' }]),
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Image dimensions are too large: at most 50 megapixels');
    await expectNothingStored('Bomb', before);
  });

  it('refuses an eleventh file', async () => {
    const before = storedFiles(server.uploadDir);
    const response = await api.post('/api/listings', { token: shop.agent.token, form: imageForm(listingFields('Eleven'), Array(11).fill(png)) });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Too many files: at most 10');
    await expectNothingStored('Eleven', before);
  });

  it('refuses a file over 10 MB', async () => {
    const before = storedFiles(server.uploadDir);
    const response = await api.post('/api/listings', {
      token: shop.agent.token,
      form: imageForm(listingFields('Oversized'), [png, { bytes: await jpegOfSize(10 * 1024 * 1024 + 1), name: 'huge.jpg' }]),
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('File "huge.jpg" is too large: at most 10 MB per file');
    await expectNothingStored('Oversized', before);
  });

  it('refuses a file in a field other than images', async () => {
    const before = storedFiles(server.uploadDir);
    const response = await api.post('/api/listings', { token: shop.agent.token, form: imageForm(listingFields('Wrong field'), [{ field: 'photo', bytes: png }]) });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Unexpected file field "photo"');
    await expectNothingStored('Wrong field', before);
  });

  it('stores no image for a request refused for its fields (400 and 422)', async () => {
    const before = storedFiles(server.uploadDir);
    const missing = await api.post('/api/listings', { token: shop.agent.token, form: imageForm({ title: 'No price', categoryId: shop.category.id }, [png]) });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('Missing required fields: price');
    const invalid = await api.post('/api/listings', {
      token: shop.agent.token,
      form: imageForm(listingFields('Bad attributes', { attributes: JSON.stringify({ brand: 'Apple' }) }), [png]),
    });
    expect(invalid.status).toBe(422);
    await expectNothingStored('No price', before);
    await expectNothingStored('Bad attributes', before);
  });

  it("stores no image for an agent posting in another agent's name", async () => {
    const before = storedFiles(server.uploadDir);
    const response = await api.post('/api/listings', {
      token: shop.agent.token,
      form: imageForm(listingFields('Impostor', { agentId: shop.otherAgent.id }), [png]),
    });
    expect(response.status).toBe(403);
    await expectNothingStored('Impostor', before);
  });

  it('removes the stored images when the database refuses the write', async () => {
    await failWritesOfTitle('Refused by the database');
    const before = storedFiles(server.uploadDir);
    const response = await api.post('/api/listings', { token: shop.agent.token, form: imageForm(listingFields('Refused by the database'), [png, png]) });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ success: false, code: 'INTERNAL_ERROR', error: 'Internal server error' });
    await expectNothingStored('Refused by the database', before);
  });

  it('answers 502 and keeps no row when the storage cannot write', async () => {
    fs.rmSync(server.uploadDir, { recursive: true, force: true });
    fs.writeFileSync(server.uploadDir, 'not a folder');
    try {
      const response = await api.post('/api/listings', { token: shop.agent.token, form: imageForm(listingFields('Disk trouble'), [png]) });
      expect(response.status).toBe(502);
      expect(response.body).toEqual({ success: false, code: 'UPSTREAM_FAILED', error: 'Image upload failed' });
      expect(await listingsTitled('Disk trouble')).toHaveLength(0);
    } finally {
      fs.rmSync(server.uploadDir, { force: true });
      fs.mkdirSync(server.uploadDir);
    }
  });
});

describe('image shape', () => {
  const LONGEST_SIDE = 'Image dimensions are too large: at most 12000 px on the longest side';
  const PROPORTIONS = 'Image proportions are not supported: the longer side may be at most 8 times the shorter';

  async function expectRefused(title: string, file: { bytes: Buffer; name: string; type: string }, error: string): Promise<void> {
    const before = storedFiles(server.uploadDir);
    const response = await api.post('/api/listings', { token: shop.agent.token, form: imageForm(listingFields(title), [png, file]) });
    expect(response.status, title).toBe(400);
    expect(response.body, title).toEqual({ success: false, code: 'UNSUPPORTED_IMAGE', error });
    expect(await listingsTitled(title)).toHaveLength(0);
    expect(storedFiles(server.uploadDir)).toEqual(before);
  }

  it('refuses an image longer than 12,000 px from its header, before decoding it, whatever its pixel count or orientation', async () => {
    await expectRefused('Thread', { bytes: pngDeclaring(4, 12_000_000), name: 'thread.png', type: 'image/png' }, LONGEST_SIDE);
    await expectRefused('Ribbon', { bytes: pngDeclaring(1200, 41_000), name: 'ribbon.png', type: 'image/png' }, LONGEST_SIDE);
    await expectRefused('Strip', { bytes: await plainImage(1200, 16_383, 'png'), name: 'strip.png', type: 'image/png' }, LONGEST_SIDE);
    // Stored sideways, 16383 wide: orientation 6 turns it upright, 1200 wide and 16383 high.
    await expectRefused('Turned strip', { bytes: await plainImage(16_383, 1200, 'jpeg', 6), name: 'turned.jpg', type: 'image/jpeg' }, LONGEST_SIDE);
  });

  it('refuses an image whose sides differ more than 1:8, upright or turned so by its EXIF orientation', async () => {
    await expectRefused('Banner', { bytes: await plainImage(1200, 9700, 'png'), name: 'banner.png', type: 'image/png' }, PROPORTIONS);
    await expectRefused('Turned banner', { bytes: await plainImage(9700, 1200, 'jpeg', 6), name: 'turned.jpg', type: 'image/jpeg' }, PROPORTIONS);
  });

  it('stores a tall image within 1200 x 2400, and its renditions in the same proportions', async () => {
    const response = await api.post('/api/listings', {
      token: shop.agent.token,
      form: imageForm(listingFields('Tall photos'), [await plainImage(1200, 9000, 'png'), await plainImage(1000, 4000, 'jpeg')]),
    });
    expect(response.status).toBe(201);
    const [narrow, portrait] = response.body.data.photos as Array<{ url: string; width: number; height: number; srcset: string }>;
    // 1:7.5 fits the box by its height; so narrow a photo has no rendition narrower than itself.
    expect(narrow).toMatchObject({ width: 320, height: 2400, srcset: `${narrow!.url} 320w` });
    expect(portrait).toMatchObject({ width: 600, height: 2400 });
    const stored = (url: string) => imageInfo(fs.readFileSync(path.join(server.uploadDir, url.replace(`${server.baseUrl}/uploads/`, ''))));
    expect(await stored(narrow!.url)).toMatchObject({ format: 'webp', width: 320, height: 2400 });
    expect(await stored(portrait!.url)).toMatchObject({ format: 'webp', width: 600, height: 2400 });
    const rendition = portrait!.srcset.split(', ')[0]!.split(' ')[0]!;
    expect(rendition).toContain('/uploads/w320/');
    expect(await stored(rendition)).toMatchObject({ format: 'webp', width: 320, height: 1280 });
  });
});

describe('updating images', () => {
  it('appends new images after the existing ones', async () => {
    const listing = await createWithImages('Append', [png, png]);
    const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, form: imageForm({}, [photo]) });
    expect(response.status).toBe(200);
    const images: string[] = response.body.data.images;
    expect(images).toHaveLength(3);
    expect(images.slice(0, 2)).toEqual(listing.images);
    expect((await storedImagesOf(listing.id)).map(answered)).toEqual(images);
    for (const ref of images) expect(fs.existsSync(path.join(server.uploadDir, path.basename(ref)))).toBe(true);
  });

  it('keeps the images listed in existingImages, in that order, and deletes the dropped files after the update', async () => {
    const listing = await createWithImages('Keep list', [png, png, png]);
    const [first, second, third] = listing.images as [string, string, string];
    const response = await api.patch(`/api/listings/${listing.id}`, {
      token: shop.agent.token,
      form: imageForm({ existingImages: JSON.stringify([third, first]) }, [png]),
    });
    expect(response.status).toBe(200);
    const images: string[] = response.body.data.images;
    expect(images).toHaveLength(3);
    expect(images.slice(0, 2)).toEqual([third, first]);
    expect((await storedImagesOf(listing.id)).map(answered)).toEqual(images);
    expect(fs.existsSync(path.join(server.uploadDir, path.basename(second)))).toBe(false);
    for (const ref of images) expect(fs.existsSync(path.join(server.uploadDir, path.basename(ref)))).toBe(true);
  });

  it('drops every image with an empty existingImages array in a JSON body', async () => {
    const listing = await createWithImages('Drop all', [png, png]);
    const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { existingImages: [] } });
    expect(response.status).toBe(200);
    expect(response.body.data.images).toEqual([]);
    for (const ref of listing.images) expect(fs.existsSync(path.join(server.uploadDir, path.basename(ref)))).toBe(false);
  });

  it('refuses an existingImages entry the listing does not have, changing and storing nothing', async () => {
    const listing = await createWithImages('Foreign image', [png]);
    const other = await createWithImages('Owner of the image', [png]);
    const before = storedFiles(server.uploadDir);
    const response = await api.patch(`/api/listings/${listing.id}`, {
      token: shop.agent.token,
      form: imageForm({ existingImages: JSON.stringify([...listing.images, other.images[0]!]) }, [png]),
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('existingImages may only list images the listing has');
    expect((await storedImagesOf(listing.id)).map(answered)).toEqual(listing.images);
    expect(storedFiles(server.uploadDir)).toEqual(before);
  });

  it('keeps images named in existingImages as stored, as it keeps them named as answered', async () => {
    const listing = await createWithImages('Stored names', [png, png, png]);
    const [first, second, third] = (await storedImagesOf(listing.id)) as [string, string, string];
    const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { existingImages: [third, first] } });
    expect(response.status).toBe(200);
    expect(response.body.data.images).toEqual([answered(third), answered(first)]);
    expect(await storedImagesOf(listing.id)).toEqual([third, first]);
    expect(fs.existsSync(path.join(server.uploadDir, path.basename(second)))).toBe(false);

    const mixed = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { existingImages: [answered(first), third] } });
    expect(mixed.status).toBe(200);
    expect(await storedImagesOf(listing.id)).toEqual([first, third]);
    expect(mixed.body.data.images).toEqual([answered(first), answered(third)]);
  });

  it("refuses in existingImages another origin's URL of the listing's own image and another listing's image in either form, changing nothing", async () => {
    const listing = await createWithImages('Guarded images', [png]);
    const other = await createWithImages('Other images', [png]);
    const [own] = (await storedImagesOf(listing.id)) as [string];
    const [othersImage] = (await storedImagesOf(other.id)) as [string];
    const before = storedFiles(server.uploadDir);
    const names = [
      `https://elsewhere.example${own}`,
      `${server.baseUrl.replace('127.0.0.1', 'localhost')}${own}`,
      `${answered(own)}?v=1`,
      `${server.baseUrl}/uploads/../uploads/${path.basename(own)}`,
      othersImage,
      answered(othersImage),
    ];
    for (const name of names) {
      const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { existingImages: [name] } });
      expect(response.status, name).toBe(400);
      expect(response.body, name).toEqual({
        success: false,
        code: 'VALIDATION_FAILED',
        error: 'existingImages may only list images the listing has',
        details: [{ field: 'existingImages', message: 'is not an image of this listing', received: name }],
      });
    }
    expect(await storedImagesOf(listing.id)).toEqual([own]);
    expect(await storedImagesOf(other.id)).toEqual([othersImage]);
    expect(storedFiles(server.uploadDir)).toEqual(before);
  });

  it('refuses existingImages naming one image twice, once as answered and once as stored, changing nothing', async () => {
    const listing = await createWithImages('Named twice', [png, png]);
    const stored = await storedImagesOf(listing.id);
    const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { existingImages: [answered(stored[0]!), stored[0]] } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      code: 'VALIDATION_FAILED',
      error: 'existingImages must not list an image twice',
      details: [{ field: 'existingImages', message: 'names an image already listed', received: stored[0] }],
    });
    expect(await storedImagesOf(listing.id)).toEqual(stored);
    for (const ref of stored) expect(fs.existsSync(path.join(server.uploadDir, path.basename(ref)))).toBe(true);
  });

  it('refuses existingImages that is not a JSON array', async () => {
    const listing = await createWithImages('Keep list text', [png]);
    const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, form: imageForm({ existingImages: listing.images[0]! }) });
    expect(response.status).toBe(400);
    expect(response.body.details[0]).toMatchObject({ field: 'existingImages', message: 'must be a JSON array of image URLs or paths' });
  });

  it('refuses more than 10 images in total and keeps none of the new files', async () => {
    const listing = await createWithImages('Almost full', Array(8).fill(png));
    const before = storedFiles(server.uploadDir);
    const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, form: imageForm({}, [png, png, png]) });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('A listing can have at most 10 images: 8 kept and 3 new');
    expect((await storedImagesOf(listing.id)).map(answered)).toEqual(listing.images);
    expect(storedFiles(server.uploadDir)).toEqual(before);
  });

  it('counts only the retained images toward the limit', async () => {
    const listing = await createWithImages('Swap', Array(8).fill(png));
    const response = await api.patch(`/api/listings/${listing.id}`, {
      token: shop.agent.token,
      form: imageForm({ existingImages: JSON.stringify(listing.images.slice(0, 7)) }, [png, png, png]),
    });
    expect(response.status).toBe(200);
    expect(response.body.data.images).toHaveLength(10);
  });

  it('stores no new image for an update refused for its attributes', async () => {
    const listing = await createWithImages('Strict update', [png]);
    const before = storedFiles(server.uploadDir);
    const response = await api.patch(`/api/listings/${listing.id}`, {
      token: shop.agent.token,
      form: imageForm({ attributes: JSON.stringify({ brand: 'Apple', model: 'X', storage: 'lots' }) }, [png]),
    });
    expect(response.status).toBe(422);
    expect(storedFiles(server.uploadDir)).toEqual(before);
    expect((await storedImagesOf(listing.id)).map(answered)).toEqual(listing.images);
  });

  it("stores no image for an update of another agent's listing", async () => {
    const listing = await createWithImages('Not yours', [png]);
    const before = storedFiles(server.uploadDir);
    const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.otherAgent.token, form: imageForm({}, [png]) });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Not authorized' });
    expect(storedFiles(server.uploadDir)).toEqual(before);
  });

  it('removes the new images and keeps the old ones when the database refuses the update', async () => {
    const listing = await createWithImages('Doomed update', [png]);
    await failWritesOfTitle('Doomed update');
    const before = storedFiles(server.uploadDir);
    const response = await api.patch(`/api/listings/${listing.id}`, {
      token: shop.agent.token,
      form: imageForm({ existingImages: '[]' }, [png]),
    });
    expect(response.status).toBe(500);
    expect(storedFiles(server.uploadDir)).toEqual(before);
    expect((await storedImagesOf(listing.id)).map(answered)).toEqual(listing.images);
  });
});

describe('image URLs in answers are absolute', () => {
  it("answers an administrator's create, detail, list and edit, the commissions list and the storefront with absolute image URLs", async () => {
    const created = await api.post('/api/listings', { token: shop.admin.token, form: imageForm(listingFields('Admin photos', { agentId: shop.agent.id }), [png, png]) });
    expect(created.status).toBe(201);
    const id: string = created.body.data.id;
    const stored = await storedImagesOf(id);
    for (const ref of stored) expect(ref).toMatch(/^\/uploads\//);
    const urls = stored.map(answered);
    expect(created.body.data.images).toEqual(urls);

    const detail = await api.get(`/api/listings/${id}`, { token: shop.admin.token });
    expect(detail.body.data.images).toEqual(urls);
    const list = await api.get('/api/listings?search=Admin%20photos', { token: shop.admin.token });
    expect(list.body.data.map((item: { id: string; images: string[] }) => [item.id, item.images])).toEqual([[id, urls]]);
    const commissions = await api.get('/api/commissions/listings?limit=100', { token: shop.admin.token });
    expect(commissions.body.data.find((item: { id: string }) => item.id === id).images).toEqual(urls);
    const storefront = await api.get(`/api/public/listings/${id}`);
    expect(storefront.body.data).toMatchObject({ hero: urls[0], gallery: urls });

    const edited = await api.patch(`/api/listings/${id}`, { token: shop.admin.token, form: imageForm({ existingImages: JSON.stringify([urls[1]]) }, [png]) });
    expect(edited.status).toBe(200);
    const after = await storedImagesOf(id);
    expect(after).toHaveLength(2);
    expect(after[0]).toBe(stored[1]);
    expect(edited.body.data.images).toEqual(after.map(answered));
    for (const url of edited.body.data.images) expect((await fetch(url)).status).toBe(200);
  });
});

describe('deleting images', () => {
  it('keeps the image files of a listing in the trash, and deletes them with the listing for good', async () => {
    const listing = await createWithImages('Deleted with files', [png, png]);
    expect((await api.delete(`/api/listings/${listing.id}`, { token: shop.admin.token })).status).toBe(200);
    for (const ref of listing.images) expect(fs.existsSync(path.join(server.uploadDir, path.basename(ref)))).toBe(true);
    const response = await api.delete(`/api/listings/${listing.id}?permanent=true`, { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { id: listing.id } });
    for (const ref of listing.images) expect(fs.existsSync(path.join(server.uploadDir, path.basename(ref)))).toBe(false);
  });

  it('never deletes a file outside the upload folder, whatever the listing references', async () => {
    const outside = path.join(path.dirname(server.uploadDir), `${path.basename(server.uploadDir)}-outside.webp`);
    fs.writeFileSync(outside, 'keep me');
    try {
      const listing = await buildListing(server.db, {
        categoryId: shop.category.id,
        agentId: shop.agent.id,
        images: [`/uploads/../${path.basename(outside)}`, outside, `file://${outside}`],
      });
      const response = await api.delete(`/api/listings/${listing.id}?permanent=true`, { token: shop.admin.token });
      expect(response.status).toBe(200);
      expect(fs.readFileSync(outside, 'utf8')).toBe('keep me');
    } finally {
      fs.rmSync(outside, { force: true });
    }
  });
});

describe('direct uploads with images on local disk', () => {
  const LOCAL_DISK = 'Direct uploads need the image host, and this service stores images on local disk (STORAGE_PROVIDER=local): send the images as multipart files instead';
  const uploadResponse = {
    public_id: 'brostechnology/listings/photo',
    version: 1,
    signature: 'a'.repeat(40),
    secure_url: 'https://res.cloudinary.com/shop/image/upload/v1/brostechnology/listings/photo.webp',
  };

  it('answers 409 for an upload signature', async () => {
    const response = await api.post('/api/uploads/signature', { token: shop.agent.token });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, code: 'NOT_CONFIGURED', error: LOCAL_DISK });
  });

  it('answers 409 for a listing naming imageRefs, storing nothing', async () => {
    const filesBefore = storedFiles(server.uploadDir);
    const form = imageForm(listingFields('Local refs', { imageRefs: JSON.stringify([uploadResponse]) }), [png]);
    const response = await api.post('/api/listings', { token: shop.agent.token, form });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, code: 'NOT_CONFIGURED', error: LOCAL_DISK });
    expect(await listingsTitled('Local refs')).toHaveLength(0);
    expect(storedFiles(server.uploadDir)).toEqual(filesBefore);
  });
});
