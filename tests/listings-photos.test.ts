import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { listings } from '../lib/db/schema.js';
import { backfillPhotos } from '../lib/listings/photo-backfill.js';
import { buildCategory, buildListing } from './support/catalog-factories.js';
import { buildAgent, type TestUser } from './support/factories.js';
import { imageForm, storedFiles } from './support/images.js';
import { expectPlaceholderAspect, expectSrcsetTrue, jpegOf, photoRecordsOf, webpOf } from './support/photos.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
let agent: TestUser;
let categoryId: string;

beforeAll(async () => {
  agent = await buildAgent(server.db);
  categoryId = (await buildCategory(server.db)).id;
});

const IMMUTABLE = 'public, max-age=31536000, immutable';
const fields = (title: string) => ({ title, price: '100', categoryId, attributes: JSON.stringify({ brand: 'Apple', model: 'iPhone 15', storage: '128GB' }) });
const nameOf = (url: string) => path.basename(new URL(url).pathname);
const renditionUrl = (url: string, width: number) => `${server.baseUrl}/uploads/w${width}/${nameOf(url)}`;

/** Every file of an image: itself and its renditions, as paths inside the upload folder. */
const filesOf = (url: string) => [nameOf(url), `w320/${nameOf(url)}`, `w640/${nameOf(url)}`];
const exists = (file: string) => fs.existsSync(path.join(server.uploadDir, file));

async function createWith(title: string, files: Buffer[]) {
  const response = await api.post('/api/listings', { token: agent.token, form: imageForm(fields(title), files) });
  expect(response.status).toBe(201);
  return response.body.data;
}

async function publicItem(id: string) {
  const list = await api.get('/api/public/listings?limit=100');
  expect(list.status).toBe(200);
  return list.body.data.find((item: { id: string }) => item.id === id);
}

describe('photos at upload', () => {
  it('answers each photo with its size, placeholder and a srcset of its 320, 640 and 1200 px copies, in every listing answer', async () => {
    const created = await createWith('Described phone', [await jpegOf(1600, 1200)]);
    const [url] = created.images as string[];
    const photo = created.photos[0];
    expect(created.photos).toEqual([
      { url, width: 1200, height: 900, placeholder: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/), srcset: `${renditionUrl(url!, 320)} 320w, ${renditionUrl(url!, 640)} 640w, ${url} 1200w` },
    ]);
    expectPlaceholderAspect(photo.placeholder, 1200, 900);
    const copies = await expectSrcsetTrue(photo.srcset);
    expect(copies.map((copy) => copy.cacheControl)).toEqual([IMMUTABLE, IMMUTABLE, IMMUTABLE]);
    const ref = `/uploads/${nameOf(url!)}`;
    expect(await photoRecordsOf(server.db, [ref])).toEqual([
      expect.objectContaining({
        ref,
        width: 1200,
        height: 900,
        placeholder: photo.placeholder,
        renditions: [
          { width: 320, ref: `/uploads/w320/${nameOf(url!)}` },
          { width: 640, ref: `/uploads/w640/${nameOf(url!)}` },
        ],
      }),
    ]);

    const item = await publicItem(created.id);
    expect(item).toMatchObject({ hero: url, gallery: [url], photos: [photo], heroPhoto: photo });
    const detail = await api.get(`/api/public/listings/${created.id}`);
    expect(detail.body.data).toMatchObject({ hero: url, gallery: [url], photos: [photo], heroPhoto: photo });
    const admin = await api.get(`/api/listings/${created.id}`, { token: agent.token });
    expect(admin.body.data).toMatchObject({ images: [url], photos: [photo] });
  });

  it('never enlarges: a 500 px photo has a 320 px copy and itself', async () => {
    const created = await createWith('Narrow phone', [await jpegOf(500, 375)]);
    const [url] = created.images as string[];
    expect(created.photos[0]).toMatchObject({ width: 500, height: 375, srcset: `${renditionUrl(url!, 320)} 320w, ${url} 500w` });
    await expectSrcsetTrue(created.photos[0].srcset);
    expect(exists(`w640/${nameOf(url!)}`)).toBe(false);
  });

  it('never enlarges: a 300 px photo is its only copy', async () => {
    const created = await createWith('Tiny phone', [await jpegOf(300, 200)]);
    const [url] = created.images as string[];
    expect(created.photos[0]).toMatchObject({ url, width: 300, height: 200, srcset: `${url} 300w` });
    await expectSrcsetTrue(created.photos[0].srcset);
    expect(filesOf(url!).map(exists)).toEqual([true, false, false]);
  });

  it('gives placeholders that decode to the aspect ratio of their photo, landscape and portrait', async () => {
    const created = await createWith('Two shapes', [await jpegOf(1600, 900), await jpegOf(600, 1000)]);
    expect(created.photos.map((photo: { width: number; height: number }) => [photo.width, photo.height])).toEqual([
      [1200, 675],
      [600, 1000],
    ]);
    expectPlaceholderAspect(created.photos[0].placeholder, 1200, 675);
    expectPlaceholderAspect(created.photos[1].placeholder, 600, 1000);
  });

  it('answers no photos and a null heroPhoto for a listing without images', async () => {
    const created = await createWith('Photoless phone', []);
    expect(created.photos).toEqual([]);
    expect(await publicItem(created.id)).toMatchObject({ hero: null, gallery: [], photos: [], heroPhoto: null });
  });
});

describe('photos removed with their image', () => {
  it('deletes the renditions and record of an image that existingImages drops, keeping the kept one whole', async () => {
    const created = await createWith('Pruned phone', [await jpegOf(1000, 800), await jpegOf(1000, 800)]);
    const [kept, dropped] = created.images as string[];
    expect([...filesOf(kept!), ...filesOf(dropped!)].every(exists)).toBe(true);

    const response = await api.patch(`/api/listings/${created.id}`, { token: agent.token, form: imageForm({ existingImages: JSON.stringify([kept]) }) });

    expect(response.status).toBe(200);
    expect(response.body.data.photos).toEqual([created.photos[0]]);
    expect(filesOf(kept!).map(exists)).toEqual([true, true, true]);
    expect(filesOf(dropped!).map(exists)).toEqual([false, false, false]);
    expect((await photoRecordsOf(server.db, [`/uploads/${nameOf(kept!)}`, `/uploads/${nameOf(dropped!)}`])).map((row) => row.ref)).toEqual([`/uploads/${nameOf(kept!)}`]);
  });

  it('keeps every rendition and record of a listing in the trash, and deletes them with the listing for good', async () => {
    const created = await createWith('Deleted phone', [await jpegOf(1000, 800), await jpegOf(700, 700)]);
    const refs = (created.images as string[]).map((url) => `/uploads/${nameOf(url)}`);

    expect((await api.delete(`/api/listings/${created.id}`, { token: agent.token })).status).toBe(200);
    expect((created.images as string[]).flatMap(filesOf).every(exists)).toBe(true);
    expect(await photoRecordsOf(server.db, refs)).toHaveLength(2);

    const response = await api.delete(`/api/listings/${created.id}?permanent=true`, { token: agent.token });

    expect(response.status).toBe(200);
    expect((created.images as string[]).flatMap(filesOf).some(exists)).toBe(false);
    expect(await photoRecordsOf(server.db, refs)).toEqual([]);
    for (const url of created.images as string[]) expect((await fetch(renditionUrl(url, 320))).status).toBe(404);
  });
});

describe('renditions that cannot be written', () => {
  it('fails the create with 502 and leaves no image, rendition, record or listing behind', async () => {
    // A file where the 640 px folder belongs: writing that rendition fails as on a full disk.
    const blocker = path.join(server.uploadDir, 'w640');
    const hadFolder = fs.existsSync(blocker);
    const moved = `${blocker}-moved`;
    if (hadFolder) fs.renameSync(blocker, moved);
    fs.writeFileSync(blocker, 'not a folder');
    const before = { top: storedFiles(server.uploadDir), w320: storedFiles(path.join(server.uploadDir, 'w320')) };
    try {
      const response = await api.post('/api/listings', { token: agent.token, form: imageForm(fields('Unwritable phone'), [await jpegOf(1600, 1200)]) });

      expect(response.status).toBe(502);
      expect(response.body).toEqual({ success: false, code: 'UPSTREAM_FAILED', error: 'Image upload failed' });
      expect(await server.db.select().from(listings).where(eq(listings.title, 'Unwritable phone'))).toEqual([]);
      expect(storedFiles(server.uploadDir)).toEqual(before.top);
      expect(storedFiles(path.join(server.uploadDir, 'w320'))).toEqual(before.w320);
    } finally {
      fs.rmSync(blocker);
      if (hadFolder) fs.renameSync(moved, blocker);
    }
  });
});

describe('npm run images:backfill', () => {
  /** Puts a file in the upload folder as an image stored before photos were described. */
  function storeOldStyle(bytes: Buffer): string {
    const name = `${crypto.randomUUID()}.webp`;
    fs.mkdirSync(server.uploadDir, { recursive: true });
    fs.writeFileSync(path.join(server.uploadDir, name), bytes);
    return `/uploads/${name}`;
  }

  it('answers old images with null sizes and their own URL as srcset, then describes them, skipping an unreadable one', async () => {
    const wide = storeOldStyle(await webpOf(800, 600));
    const narrow = storeOldStyle(await webpOf(300, 450));
    const unreadable = storeOldStyle(Buffer.from('not an image at all'));
    const listing = await buildListing(server.db, { categoryId, agentId: agent.id, title: 'Old phone', images: [wide, unreadable, narrow] });
    const urls = [wide, unreadable, narrow].map((ref) => `${server.baseUrl}${ref}`);
    const before = await api.get(`/api/public/listings/${listing.id}`);
    expect(before.body.data.photos).toEqual(urls.map((url) => ({ url, width: null, height: null, placeholder: null, srcset: url })));
    expect(before.body.data.heroPhoto).toEqual(before.body.data.photos[0]);

    const progress: number[] = [];
    const summary = await backfillPhotos(server.db, { onProgress: (step) => progress.push(step.listingsScanned) });

    expect(summary.skippedRefs).toEqual([{ ref: unreadable, reason: expect.any(String) }]);
    expect(summary.described).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)).toBe(summary.listingsTotal);
    const after = await api.get(`/api/public/listings/${listing.id}`);
    const [widePhoto, unreadablePhoto, narrowPhoto] = after.body.data.photos;
    expect(widePhoto).toEqual({
      url: urls[0],
      width: 800,
      height: 600,
      placeholder: expect.any(String),
      srcset: `${renditionUrl(urls[0]!, 320)} 320w, ${renditionUrl(urls[0]!, 640)} 640w, ${urls[0]} 800w`,
    });
    expect(unreadablePhoto).toEqual(before.body.data.photos[1]);
    expect(narrowPhoto).toMatchObject({ width: 300, height: 450, srcset: `${urls[2]} 300w` });
    expectPlaceholderAspect(widePhoto.placeholder, 800, 600);
    expectPlaceholderAspect(narrowPhoto.placeholder, 300, 450);
    await expectSrcsetTrue(widePhoto.srcset);

    const again = await backfillPhotos(server.db);
    expect(again).toMatchObject({ described: 0, skipped: 1, alreadyDescribed: summary.alreadyDescribed + summary.described });
    expect((await api.get(`/api/public/listings/${listing.id}`)).body.data.photos).toEqual(after.body.data.photos);
  });

  it('resumes a run that stopped: the next run describes what the first had not reached', async () => {
    const first = storeOldStyle(await webpOf(700, 500));
    const second = storeOldStyle(await webpOf(700, 500));
    await buildListing(server.db, { categoryId, agentId: agent.id, title: 'Resumed A', images: [first] });
    await buildListing(server.db, { categoryId, agentId: agent.id, title: 'Resumed B', images: [second] });
    const stopped = await backfillPhotos(server.db, {
      batchSize: 1,
      onProgress: (step) => {
        if (step.described > 0) throw new Error('stopped');
      },
    }).catch((error: Error) => error.message);
    expect(stopped).toBe('stopped');
    expect(await photoRecordsOf(server.db, [first, second])).toHaveLength(1);

    const resumed = await backfillPhotos(server.db);

    expect(resumed.described).toBe(1);
    expect((await photoRecordsOf(server.db, [first, second])).map((row) => row.width)).toEqual([700, 700]);
  });
});
