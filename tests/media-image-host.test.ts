import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listings } from '../lib/db/schema.js';
import { buildCategory, buildListing } from './support/catalog-factories.js';
import { buildAgent, type TestUser } from './support/factories.js';
import { imageForm, imageInfo, largeJpeg, smallPng, storedFiles } from './support/images.js';
import { startLoopbackImageHost, type LoopbackImageHost } from './support/loopback-image-host.js';
import { useTestServer } from './support/test-server.js';

const FOLDER = 'test-shop/listings';

let host: LoopbackImageHost;
beforeAll(async () => {
  host = await startLoopbackImageHost();
});
afterAll(() => host.close());
// The SDK reads CLOUDINARY_URL when first imported, which is on the first image request, after this.
const server = useTestServer(() => ({ STORAGE_PROVIDER: 'cloudinary', CLOUDINARY_URL: host.cloudinaryUrl, IMAGE_HOST_FOLDER: FOLDER }));
const api = server.api;
let agent: TestUser;
let categoryId: string;
let png: Buffer;

beforeAll(async () => {
  agent = await buildAgent(server.db);
  categoryId = (await buildCategory(server.db)).id;
  png = await smallPng();
});
beforeEach(() => host.recover());

const fields = (title: string) => ({ title, price: '250', categoryId, attributes: JSON.stringify({ brand: 'Apple', model: 'iPad', storage: '64GB' }) });

const publicIdOf = (url: string) => new URL(url).pathname.replace(`/${host.cloudName}/image/upload/v1/`, '').replace(/\.webp$/, '');

async function listingsTitled(title: string) {
  return server.db.select().from(listings).where(eq(listings.title, title));
}

async function createWithImages(title: string, files: Buffer[]): Promise<{ id: string; images: string[] }> {
  const response = await api.post('/api/listings', { token: agent.token, form: imageForm(fields(title), files) });
  expect(response.status).toBe(201);
  return response.body.data;
}

describe('storing on the image host', () => {
  it('uploads processed WebP images into the folder through signed requests, keeping nothing on local disk', async () => {
    const uploadsBefore = host.uploads.length;
    const listing = await createWithImages('Hosted', [await largeJpeg(), png]);
    expect(listing.images).toHaveLength(2);
    for (const url of listing.images) {
      expect(url).toMatch(new RegExp(`^${host.baseUrl}/${host.cloudName}/image/upload/v1/${FOLDER}/[0-9a-f-]{36}\\.webp$`));
      const bytes = host.images.get(publicIdOf(url));
      expect(bytes).toBeDefined();
      const delivered = await fetch(url);
      expect(delivered.headers.get('content-type')).toBe('image/webp');
      expect(Buffer.from(await delivered.arrayBuffer())).toEqual(bytes);
    }
    expect(await imageInfo(host.images.get(publicIdOf(listing.images[0]!))!)).toMatchObject({ format: 'webp', width: 1200, height: 900 });
    expect(await imageInfo(host.images.get(publicIdOf(listing.images[1]!))!)).toMatchObject({ format: 'webp', width: 640 });
    expect(host.uploads.slice(uploadsBefore).map((upload) => upload.publicId).sort()).toEqual(listing.images.map(publicIdOf).sort());
    expect(host.badSignatures).toBe(0);
    expect(storedFiles(server.uploadDir)).toEqual([]);
    const [row] = await listingsTitled('Hosted');
    expect(row!.images).toEqual(listing.images);
  });

  it('uploads nothing for a request refused for its fields', async () => {
    const uploadsBefore = host.uploads.length;
    const response = await api.post('/api/listings', {
      token: agent.token,
      form: imageForm({ ...fields('Refused'), attributes: JSON.stringify({ brand: 'Apple' }) }, [png]),
    });
    expect(response.status).toBe(422);
    expect(host.uploads).toHaveLength(uploadsBefore);
  });
});

describe('image host failures', () => {
  it('answers 502 when an upload fails mid-request, keeps no row and destroys the images already uploaded', async () => {
    const uploadsBefore = host.uploads.length;
    host.failUploadsAfter(2);
    const response = await api.post('/api/listings', { token: agent.token, form: imageForm(fields('Half uploaded'), [png, png, png, png]) });
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ success: false, code: 'UPSTREAM_FAILED', error: 'Image upload failed' });
    expect(await listingsTitled('Half uploaded')).toHaveLength(0);
    const uploaded = host.uploads.slice(uploadsBefore).map((upload) => upload.publicId);
    expect(uploaded).toHaveLength(2);
    expect(host.destroyed).toEqual(expect.arrayContaining(uploaded));
    for (const publicId of uploaded) expect(host.images.has(publicId)).toBe(false);
  });

  it('leaves the listing as it was when an upload of an update fails, destroying the new uploads', async () => {
    const listing = await createWithImages('Stable', [png]);
    const uploadsBefore = host.uploads.length;
    host.failUploadsAfter(1);
    const response = await api.patch(`/api/listings/${listing.id}`, { token: agent.token, form: imageForm({ title: 'Changed', existingImages: '[]' }, [png, png]) });
    expect(response.status).toBe(502);
    const [row] = await server.db.select().from(listings).where(eq(listings.id, listing.id));
    expect(row).toMatchObject({ title: 'Stable', images: listing.images });
    expect(host.images.has(publicIdOf(listing.images[0]!))).toBe(true);
    const uploaded = host.uploads.slice(uploadsBefore).map((upload) => upload.publicId);
    expect(uploaded).toHaveLength(1);
    expect(host.images.has(uploaded[0]!)).toBe(false);
  });
});

describe('removing from the image host', () => {
  it('destroys the images an update drops, after keeping the listed ones', async () => {
    const listing = await createWithImages('Trimmed', [png, png]);
    const [kept, dropped] = listing.images as [string, string];
    const response = await api.patch(`/api/listings/${listing.id}`, { token: agent.token, json: { existingImages: [kept] } });
    expect(response.status).toBe(200);
    expect(response.body.data.images).toEqual([kept]);
    expect(host.destroyed).toContain(publicIdOf(dropped));
    expect(host.images.has(publicIdOf(dropped))).toBe(false);
    expect(host.images.has(publicIdOf(kept))).toBe(true);
  });

  it('keeps the images of a listing in the trash, and destroys them with the listing for good', async () => {
    const listing = await createWithImages('Gone', [png, png]);
    expect((await api.delete(`/api/listings/${listing.id}`, { token: agent.token })).status).toBe(200);
    for (const url of listing.images) expect(host.images.has(publicIdOf(url))).toBe(true);
    const response = await api.delete(`/api/listings/${listing.id}?permanent=true`, { token: agent.token });
    expect(response.status).toBe(200);
    for (const url of listing.images) expect(host.images.has(publicIdOf(url))).toBe(false);
  });

  it('never destroys an image outside the folder or on another host', async () => {
    host.images.set('elsewhere/keep-me', png);
    const outsideFolder = host.deliveryUrl('elsewhere/keep-me');
    const traversal = host.deliveryUrl(`${FOLDER}/../elsewhere/keep-me`);
    const otherHost = `https://images.example.net/${host.cloudName}/image/upload/v1/${FOLDER}/abc.webp`;
    const destroyedBefore = host.destroyed.length;
    const listing = await buildListing(server.db, { categoryId, agentId: agent.id, images: [outsideFolder, traversal, otherHost] });
    expect((await api.delete(`/api/listings/${listing.id}`, { token: agent.token })).status).toBe(200);
    const response = await api.delete(`/api/listings/${listing.id}?permanent=true`, { token: agent.token });
    expect(response.status).toBe(200);
    expect(host.destroyed).toHaveLength(destroyedBefore);
    expect(host.images.has('elsewhere/keep-me')).toBe(true);
  });
});
