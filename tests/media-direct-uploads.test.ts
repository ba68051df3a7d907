import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listings } from '../lib/db/schema.js';
import type { DirectUploadTicket } from '../lib/media/direct-upload.js';
import type { TestUser } from './support/factories.js';
import { imageForm, imageInfo, jpegOfSize, largeJpeg, plainImage, smallPng } from './support/images.js';
import { startLoopbackImageHost, type LoopbackImageHost, type UploadResponse } from './support/loopback-image-host.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const FOLDER = 'test-shop/listings';
const MEGABYTE = 1024 * 1024;
const SIGNATURE_LIFETIME_SECONDS = 3600;

let host: LoopbackImageHost;
beforeAll(async () => {
  host = await startLoopbackImageHost();
});
afterAll(() => host.close());
const server = useTestServer(() => ({ STORAGE_PROVIDER: 'cloudinary', CLOUDINARY_URL: host.cloudinaryUrl, IMAGE_HOST_FOLDER: FOLDER }));
const api = server.api;
const shop = useShop(server);
let png: Buffer;
let photo: Buffer;

beforeAll(async () => {
  png = await smallPng();
  photo = await largeJpeg();
});

const fields = (title: string) => ({ title, price: 250, categoryId: shop.category.id, attributes: { brand: 'Apple', model: 'iPad', storage: '64GB' } });

async function ticketFor(user: TestUser): Promise<DirectUploadTicket> {
  const response = await api.post<{ data: DirectUploadTicket }>('/api/uploads/signature', { token: user.token });
  expect(response.status).toBe(200);
  return response.body.data;
}

/** Uploads one file straight to the image host, as a browser does with a ticket's fields. */
async function uploadDirectly(ticket: DirectUploadTicket, file: Buffer, fieldOverrides: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...ticket.fields, ...fieldOverrides })) form.append(name, String(value));
  form.append('file', new Blob([file], { type: 'image/jpeg' }), 'photo.jpg');
  return fetch(ticket.uploadUrl, { method: 'POST', body: form });
}

/** Uploads one file with a ticket of its own, as each ticket makes one image. */
async function uploaded(user: TestUser, file: Buffer): Promise<UploadResponse> {
  const response = await uploadDirectly(await ticketFor(user), file);
  expect(response.status).toBe(200);
  return (await response.json()) as UploadResponse;
}

const publicIdOf = (url: string) => new URL(url).pathname.replace(`/${host.cloudName}/image/upload/v1/`, '').replace(/\.webp$/, '');

async function listingRow(id: string) {
  const [row] = await server.db.select().from(listings).where(eq(listings.id, id));
  return row;
}

async function listingsTitled(title: string) {
  return server.db.select().from(listings).where(eq(listings.title, title));
}

async function createWithRefs(title: string, imageRefs: unknown[]): Promise<{ id: string; images: string[] }> {
  const response = await api.post('/api/listings', { token: shop.agent.token, json: { ...fields(title), imageRefs } });
  expect(response.status).toBe(201);
  return response.body.data;
}

describe('POST /api/uploads/signature', () => {
  it('signs uploads into the folder with the incoming transformation to a WebP within 1200 x 2400 at quality 80', async () => {
    const before = Math.floor(Date.now() / 1000);
    const ticket = await ticketFor(shop.agent);
    expect(ticket).toEqual({
      uploadUrl: `${host.baseUrl}/v1_1/${host.cloudName}/image/upload`,
      cloudName: host.cloudName,
      apiKey: '123456789012345',
      publicId: expect.stringMatching(new RegExp(`^${FOLDER}/[0-9a-f-]{36}$`)),
      timestamp: expect.any(Number),
      expiresAt: new Date((ticket.timestamp + SIGNATURE_LIFETIME_SECONDS) * 1000).toISOString(),
      folder: FOLDER,
      transformation: 'c_limit,h_2400,q_80,w_1200',
      format: 'webp',
      signature: expect.stringMatching(/^[0-9a-f]{40}$/),
      fields: {
        api_key: '123456789012345',
        public_id: ticket.publicId,
        timestamp: ticket.timestamp,
        transformation: 'c_limit,h_2400,q_80,w_1200',
        format: 'webp',
        signature: ticket.signature,
      },
    });
    expect(ticket.timestamp).toBeGreaterThanOrEqual(before);
    expect(ticket.timestamp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  });

  it('gives a signature the image host accepts, which stores the photo in the folder as the spec\'s image', async () => {
    const badSignatures = host.badSignatures;
    const response = await uploaded(shop.admin, photo);
    expect(host.badSignatures).toBe(badSignatures);
    expect(response.public_id).toMatch(new RegExp(`^${FOLDER}/[0-9a-f-]+$`));
    expect(await imageInfo(host.images.get(response.public_id)!)).toMatchObject({ format: 'webp', width: 1200, height: 900 });
  });

  it('gives a signature with which the image host stores a tall photo within 1200 x 2400, as the service stores one', async () => {
    const response = await uploaded(shop.agent, await plainImage(1000, 4000, 'jpeg'));
    expect(await imageInfo(host.images.get(response.public_id)!)).toMatchObject({ format: 'webp', width: 600, height: 2400 });
  });

  it('gives a signature that covers the image\'s public id in the folder and the transformation: the image host refuses either changed', async () => {
    const ticket = await ticketFor(shop.agent);
    const badSignatures = host.badSignatures;
    expect((await uploadDirectly(ticket, png, { public_id: 'elsewhere/photo' })).status).toBe(401);
    expect((await uploadDirectly(ticket, png, { transformation: 'c_limit,q_100,w_4000' })).status).toBe(401);
    expect(host.badSignatures).toBe(badSignatures + 2);
  });
});

describe('listings with images uploaded directly', () => {
  it('creates a listing with ten 8 MB photos while no request to the service exceeds 1 MB', async () => {
    const eightMegabytes = await jpegOfSize(8 * MEGABYTE);
    // The only requests to the service: the signature (no body) and this listing.
    const refs = await Promise.all(Array.from({ length: 10 }, () => uploaded(shop.agent, eightMegabytes)));
    expect(host.uploads.slice(-10).map((upload) => upload.receivedBytes)).toEqual(Array(10).fill(8 * MEGABYTE));
    const body = { ...fields('Ten photos'), imageRefs: refs };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(MEGABYTE);

    const response = await api.post('/api/listings', { token: shop.agent.token, json: body });
    expect(response.status).toBe(201);
    const listing: { id: string; images: string[] } = response.body.data;
    expect(listing.images).toEqual(refs.map((ref) => ref.secure_url));
    expect((await listingRow(listing.id))!.images).toEqual(listing.images);
    for (const ref of refs) expect(await imageInfo(host.images.get(ref.public_id)!)).toMatchObject({ format: 'webp', width: 1200 });
    // The write reads each of the ten photos back from the host once, to learn its size and placeholder.
  }, 60_000);

  it('takes imageRefs as a multipart field too, after the files sent with it', async () => {
    const ref = await uploaded(shop.agent, png);
    const { attributes, price, ...text } = fields('Mixed');
    const form = imageForm({ ...text, price: String(price), attributes: JSON.stringify(attributes), imageRefs: JSON.stringify([ref]) }, [png]);
    const response = await api.post('/api/listings', { token: shop.agent.token, form });
    expect(response.status).toBe(201);
    const images: string[] = response.body.data.images;
    expect(images).toHaveLength(2);
    expect(images[0]).toMatch(new RegExp(`/${FOLDER}/[0-9a-f-]{36}\\.webp$`));
    expect(images[1]).toBe(ref.secure_url);
  });

  it('stores the same URL form as an image uploaded through the service', async () => {
    const ref = await uploaded(shop.agent, png);
    const { attributes, price, ...text } = fields('Through the service');
    const viaService = await api.post('/api/listings', { token: shop.agent.token, form: imageForm({ ...text, price: String(price), attributes: JSON.stringify(attributes) }, [png]) });
    const direct = await createWithRefs('Direct', [ref]);
    const urlShape = (url: string) => url.replace(/[^/]+\.webp$/, '<id>.webp');
    expect(urlShape(direct.images[0]!)).toBe(urlShape(viaService.body.data.images[0]));
  });

  it('refuses refs outside the folder, with a forged signature or naming another image, and stores nothing', async () => {
    const [forged, misnamed, elsewhere, reversioned, genuine] = await Promise.all(Array.from({ length: 5 }, () => uploaded(shop.agent, png)));
    const outsideFolder = host.store('another-shop/listings/photo', png);
    const refs = [
      outsideFolder,
      { ...forged!, signature: 'f'.repeat(40) },
      { ...misnamed!, secure_url: elsewhere!.secure_url },
      { ...reversioned!, version: 2 },
      genuine!,
    ];
    const uploadsBefore = host.uploads.length;
    const response = await api.post('/api/listings', { token: shop.agent.token, json: { ...fields('Forged'), imageRefs: refs } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      code: 'VALIDATION_FAILED',
      error: 'imageRefs may only name images uploaded to the image host with this service\'s signature',
      details: [
        { field: 'imageRefs[0]', message: `is not an image uploaded to ${FOLDER}`, received: 'another-shop/listings/photo' },
        { field: 'imageRefs[1]', message: 'is not an upload response signed by the image host', received: forged!.public_id },
        { field: 'imageRefs[2]', message: 'has a secure_url that is not the uploaded image\'s URL', received: misnamed!.public_id },
        { field: 'imageRefs[3]', message: 'is not an upload response signed by the image host', received: reversioned!.public_id },
      ],
    });
    expect(await listingsTitled('Forged')).toHaveLength(0);
    expect(host.uploads).toHaveLength(uploadsBefore);
    expect(host.images.has(genuine!.public_id)).toBe(true);
  });

  it('refuses a ref without the upload response\'s signature', async () => {
    const { signature: _unsigned, ...unsigned } = await uploaded(shop.agent, png);
    const response = await api.post('/api/listings', { token: shop.agent.token, json: { ...fields('Unsigned'), imageRefs: [unsigned] } });
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([expect.objectContaining({ field: 'imageRefs.0.signature' })]);
    expect(await listingsTitled('Unsigned')).toHaveLength(0);
  });

  it('refuses the same image twice in one request', async () => {
    const ref = await uploaded(shop.agent, png);
    const response = await api.post('/api/listings', { token: shop.agent.token, json: { ...fields('Twice'), imageRefs: [ref, ref] } });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('imageRefs must not name an image twice');
    expect(response.body.details).toEqual([{ field: 'imageRefs[1]', message: 'names an image already named', received: ref.secure_url }]);
    expect(await listingsTitled('Twice')).toHaveLength(0);
  });

  it('counts refs with the uploaded files against the 10-image limit, uploading none of the files', async () => {
    const refs = await Promise.all(Array.from({ length: 10 }, () => uploaded(shop.agent, png)));
    const { attributes, price, ...text } = fields('Eleven');
    const form = imageForm({ ...text, price: String(price), attributes: JSON.stringify(attributes), imageRefs: JSON.stringify(refs) }, [png]);
    const uploadsBefore = host.uploads.length;
    const response = await api.post('/api/listings', { token: shop.agent.token, form });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('A listing can have at most 10 images: 0 kept and 11 new');
    expect(host.uploads).toHaveLength(uploadsBefore);
    expect(await listingsTitled('Eleven')).toHaveLength(0);
  });

  it('gives a directly uploaded image to one listing only, also when two writes race for it', async () => {
    const ref = await uploaded(shop.agent, png);
    const attempts = await Promise.all(
      ['Race A', 'Race B'].map((title) => api.post('/api/listings', { token: shop.agent.token, json: { ...fields(title), imageRefs: [ref] } })),
    );
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual([201, 409]);
    const refused = attempts.find((attempt) => attempt.status === 409)!;
    expect(refused.body).toEqual({
      success: false,
      code: 'CONFLICT',
      error: 'imageRefs names an image a listing already has; a listing keeps its own images through existingImages',
      details: [{ field: 'imageRefs[0]', message: 'is already an image of a listing', received: ref.secure_url }],
    });
    const rows = [...(await listingsTitled('Race A')), ...(await listingsTitled('Race B'))];
    expect(rows.map((row) => row.images)).toEqual([[ref.secure_url]]);
  });

  it('appends refs on update, after the retained images and new files, within the limit', async () => {
    const [first, second, third] = await Promise.all([uploaded(shop.agent, png), uploaded(shop.agent, png), uploaded(shop.agent, png)]);
    const listing = await createWithRefs('Growing', [first]);
    const form = imageForm({ existingImages: JSON.stringify(listing.images), imageRefs: JSON.stringify([second]) }, [png]);
    const response = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, form });
    expect(response.status).toBe(200);
    const images: string[] = response.body.data.images;
    expect(images).toHaveLength(3);
    expect(images[0]).toBe(first!.secure_url);
    expect(images[2]).toBe(second!.secure_url);
    expect((await listingRow(listing.id))!.images).toEqual(images);

    const full = await Promise.all(Array.from({ length: 8 }, () => uploaded(shop.agent, png)));
    const overLimit = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { imageRefs: full } });
    expect(overLimit.status).toBe(400);
    expect(overLimit.body.error).toBe('A listing can have at most 10 images: 3 kept and 8 new');
    expect((await listingRow(listing.id))!.images).toEqual(images);

    const again = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { imageRefs: [first, third] } });
    expect(again.status).toBe(409);
    expect((await listingRow(listing.id))!.images).toEqual(images);
  });

  it('destroys a directly uploaded image on the host when an update drops it or the listing is deleted for good', async () => {
    const [dropped, kept] = await Promise.all([uploaded(shop.agent, png), uploaded(shop.agent, png)]);
    const listing = await createWithRefs('Pruned', [dropped, kept]);
    const update = await api.patch(`/api/listings/${listing.id}`, { token: shop.agent.token, json: { existingImages: [kept!.secure_url] } });
    expect(update.status).toBe(200);
    expect(host.destroyed).toContain(dropped!.public_id);
    expect(host.images.has(dropped!.public_id)).toBe(false);
    expect(host.images.has(kept!.public_id)).toBe(true);

    expect((await api.delete(`/api/listings/${listing.id}`, { token: shop.agent.token })).status).toBe(200);
    expect(host.images.has(kept!.public_id)).toBe(true);
    const removal = await api.delete(`/api/listings/${listing.id}?permanent=true`, { token: shop.agent.token });
    expect(removal.status).toBe(200);
    expect(host.destroyed).toContain(kept!.public_id);
    expect(host.images.has(kept!.public_id)).toBe(false);
    expect(publicIdOf(kept!.secure_url)).toBe(kept!.public_id);
  });
});

/** How far this process's resident memory rose while `work` ran, in MB: the server under test runs in this process. */
async function memoryRiseDuring<T>(work: () => Promise<T>): Promise<{ result: T; riseMb: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  const sampler = setInterval(sample, 10);
  try {
    const result = await work();
    sample();
    return { result, riseMb: (peak - before) / MEGABYTE };
  } finally {
    clearInterval(sampler);
  }
}

describe('describing the uploads a write names', () => {
  it('refuses an upload of a shape an upload through the service would be refused for, naming it, and keeps no listing', async () => {
    const genuine = await uploaded(shop.agent, png);
    // Put on the host by another client of the account, past the ticket's transformation.
    const strip = host.store(`${FOLDER}/strip-${crypto.randomUUID()}`, await plainImage(1200, 9700, 'png'));
    const response = await api.post('/api/listings', { token: shop.agent.token, json: { ...fields('Strip'), imageRefs: [genuine, strip] } });
    const error = 'Image proportions are not supported: the longer side may be at most 8 times the shorter';
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, code: 'UNSUPPORTED_IMAGE', error, details: [{ field: 'imageRefs[1]', message: error, received: strip.secure_url }] });
    expect(await listingsTitled('Strip')).toHaveLength(0);
    expect(host.images.has(strip.public_id)).toBe(true);
  });

  it('describes ten large uploads one at a time from a reduced decode, holding the memory of the service', async () => {
    // 1500 x 12000: the longest side and the proportions allowed; 54 MB of pixels decoded in full.
    const large = await plainImage(1500, 12_000, 'webp');
    const refs = Array.from({ length: 10 }, (_, index) => host.store(`${FOLDER}/large-${index}-${crypto.randomUUID()}`, large));
    const { result: response, riseMb } = await memoryRiseDuring(() => api.post('/api/listings', { token: shop.agent.token, json: { ...fields('Large photos'), imageRefs: refs } }));
    expect(response.status).toBe(201);
    expect(response.body.data.photos).toHaveLength(10);
    for (const photo of response.body.data.photos) expect(photo).toMatchObject({ width: 1500, height: 12_000, placeholder: expect.any(String) });
    expect(riseMb).toBeLessThan(150);
  }, 60_000);
});
