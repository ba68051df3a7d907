import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listings } from '../lib/db/schema.js';
import type { DirectUploadTicket } from '../lib/media/direct-upload.js';
import { backfillPhotos } from '../lib/listings/photo-backfill.js';
import { buildCategory, buildListing } from './support/catalog-factories.js';
import { buildAgent, type TestUser } from './support/factories.js';
import { imageForm, storedFiles } from './support/images.js';
import { useLoopbackImageHost, type UploadResponse } from './support/loopback-image-host.js';
import { expectPlaceholderAspect, expectSrcsetTrue, jpegOf, photoRecordsOf, webpOf } from './support/photos.js';
import { useTestServer } from './support/test-server.js';

const FOLDER = 'photo-shop/listings';

const host = useLoopbackImageHost(FOLDER);
const server = useTestServer(() => host.serverEnv());
const api = server.api;
let agent: TestUser;
let categoryId: string;

beforeAll(async () => {
  agent = await buildAgent(server.db);
  categoryId = (await buildCategory(server.db)).id;
});
beforeEach(() => host.recover());

const ATTRIBUTES = { brand: 'Apple', model: 'iPad', storage: '64GB' };
const fields = (title: string) => ({ title, price: '250', categoryId, attributes: JSON.stringify(ATTRIBUTES) });
const withDirectUploads = (title: string, imageRefs: UploadResponse[]) => ({ title, price: 250, categoryId, attributes: ATTRIBUTES, imageRefs });
const publicIdOf = (url: string) => new URL(url).pathname.replace(`/${host.cloudName}/image/upload/v1/`, '').replace(/\.webp$/, '');
/** The image host's delivery transformation of a stored image, as its SDK writes it. */
const transformed = (url: string, width: number) => url.replace('/image/upload/v1/', `/image/upload/c_limit,f_auto,q_auto,w_${width}/v1/`);

async function createWith(title: string, files: Buffer[]) {
  const response = await api.post('/api/listings', { token: agent.token, form: imageForm(fields(title), files) });
  expect(response.status).toBe(201);
  return response.body.data;
}

/** Uploads one photo straight to the image host with a ticket of its own, as a browser does. */
async function uploadedDirectly(file: Buffer): Promise<UploadResponse> {
  const ticket = (await api.post<{ data: DirectUploadTicket }>('/api/uploads/signature', { token: agent.token })).body.data;
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, String(value));
  form.append('file', new Blob([file], { type: 'image/jpeg' }), 'photo.jpg');
  const response = await fetch(ticket.uploadUrl, { method: 'POST', body: form });
  expect(response.status).toBe(200);
  return (await response.json()) as UploadResponse;
}

describe('photos on the image host', () => {
  it('answers renditions as delivery transformations of the one stored image, each as wide as its descriptor', async () => {
    const uploadsBefore = host.uploads.length;
    const created = await createWith('Hosted photo', [await jpegOf(1600, 1200)]);
    const [url] = created.images as string[];
    const photo = created.photos[0];
    expect(photo).toEqual({
      url,
      width: 1200,
      height: 900,
      placeholder: expect.any(String),
      srcset: `${transformed(url!, 320)} 320w, ${transformed(url!, 640)} 640w, ${url} 1200w`,
    });
    expectPlaceholderAspect(photo.placeholder, 1200, 900);
    await expectSrcsetTrue(photo.srcset);
    expect(host.uploads.slice(uploadsBefore).map((upload) => upload.publicId)).toEqual([publicIdOf(url!)]);
    expect(storedFiles(server.uploadDir)).toEqual([]);
    const detail = await api.get(`/api/public/listings/${created.id}`);
    expect(detail.body.data).toMatchObject({ hero: url, photos: [photo], heroPhoto: photo });
  });

  it('never enlarges: a 500 px photo has a 320 px transformation and itself, a 300 px photo only itself', async () => {
    const created = await createWith('Small hosted photos', [await jpegOf(500, 375), await jpegOf(300, 200)]);
    const [medium, small] = created.images as string[];
    expect(created.photos.map((photo: { srcset: string }) => photo.srcset)).toEqual([`${transformed(medium!, 320)} 320w, ${medium} 500w`, `${small} 300w`]);
    for (const photo of created.photos) await expectSrcsetTrue(photo.srcset);
  });

  it('describes a direct upload at the listing write, from the image the host stored', async () => {
    const upload = await uploadedDirectly(await jpegOf(900, 1200));
    const response = await api.post('/api/listings', { token: agent.token, json: withDirectUploads('Directly uploaded', [upload]) });

    expect(response.status).toBe(201);
    const [url] = response.body.data.images as string[];
    const photo = response.body.data.photos[0];
    expect(photo).toEqual({ url, width: 900, height: 1200, placeholder: expect.any(String), srcset: `${transformed(url!, 320)} 320w, ${transformed(url!, 640)} 640w, ${url} 900w` });
    expectPlaceholderAspect(photo.placeholder, 900, 1200);
    await expectSrcsetTrue(photo.srcset);
    expect(await photoRecordsOf(server.db, [url!])).toEqual([expect.objectContaining({ ref: url, width: 900, height: 1200 })]);
  });

  it('fails the write with 502 and keeps no listing or record when the host cannot deliver a direct upload to describe', async () => {
    const upload = await uploadedDirectly(await jpegOf(800, 600));
    host.images.delete(upload.public_id);

    const response = await api.post('/api/listings', { token: agent.token, json: withDirectUploads('Undeliverable', [upload]) });

    expect(response.status).toBe(502);
    expect(response.body).toEqual({ success: false, code: 'UPSTREAM_FAILED', error: 'Image upload failed' });
    expect(await server.db.select().from(listings).where(eq(listings.title, 'Undeliverable'))).toEqual([]);
    expect(await photoRecordsOf(server.db, [upload.secure_url])).toEqual([]);
  });
});

describe('photos removed with their image on the image host', () => {
  it('destroys an image that existingImages drops and deletes its record; its transformations go with it', async () => {
    const created = await createWith('Pruned hosted', [await jpegOf(1000, 800), await jpegOf(1000, 800)]);
    const [kept, dropped] = created.images as string[];

    const response = await api.patch(`/api/listings/${created.id}`, { token: agent.token, form: imageForm({ existingImages: JSON.stringify([kept]) }) });

    expect(response.status).toBe(200);
    expect(response.body.data.photos).toEqual([created.photos[0]]);
    expect(host.destroyed).toContain(publicIdOf(dropped!));
    expect((await photoRecordsOf(server.db, [kept!, dropped!])).map((row) => row.ref)).toEqual([kept]);
    expect((await fetch(transformed(dropped!, 320))).status).toBe(404);
    expect((await fetch(transformed(kept!, 320))).status).toBe(200);
  });

  it('keeps the images of a listing in the trash, and destroys them with their records when it is deleted for good', async () => {
    const created = await createWith('Deleted hosted', [await jpegOf(1000, 800)]);
    const [url] = created.images as string[];

    expect((await api.delete(`/api/listings/${created.id}`, { token: agent.token })).status).toBe(200);
    expect(host.destroyed).not.toContain(publicIdOf(url!));
    expect((await api.delete(`/api/listings/${created.id}?permanent=true`, { token: agent.token })).status).toBe(200);

    expect(host.destroyed).toContain(publicIdOf(url!));
    expect(await photoRecordsOf(server.db, [url!])).toEqual([]);
    expect((await fetch(transformed(url!, 640))).status).toBe(404);
  });
});

describe('backfill on the image host', () => {
  it('describes images stored before photos were, answering transformations as renditions and storing nothing new', async () => {
    const publicId = `${FOLDER}/${crypto.randomUUID()}`;
    host.store(publicId, await webpOf(1000, 750));
    const url = host.deliveryUrl(publicId);
    const listing = await buildListing(server.db, { categoryId, agentId: agent.id, title: 'Old hosted', images: [url] });
    const before = await api.get(`/api/public/listings/${listing.id}`);
    expect(before.body.data.heroPhoto).toEqual({ url, width: null, height: null, placeholder: null, srcset: url });
    const uploadsBefore = host.uploads.length;

    const summary = await backfillPhotos(server.db);

    expect(summary).toMatchObject({ skipped: 0 });
    expect(summary.described).toBeGreaterThanOrEqual(1);
    const after = await api.get(`/api/public/listings/${listing.id}`);
    expect(after.body.data.heroPhoto).toEqual({
      url,
      width: 1000,
      height: 750,
      placeholder: expect.any(String),
      srcset: `${transformed(url, 320)} 320w, ${transformed(url, 640)} 640w, ${url} 1000w`,
    });
    await expectSrcsetTrue(after.body.data.heroPhoto.srcset);
    expect(host.uploads.length).toBe(uploadsBefore);
    expect((await backfillPhotos(server.db)).described).toBe(0);
  });
});
