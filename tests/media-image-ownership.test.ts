import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { directUploads, listings } from '../lib/db/schema.js';
import type { DirectUploadTicket } from '../lib/media/direct-upload.js';
import { buildCategory } from './support/catalog-factories.js';
import { buildAgent, type TestUser } from './support/factories.js';
import { smallPng } from './support/images.js';
import { useLoopbackImageHost, type UploadResponse } from './support/loopback-image-host.js';
import { useTestServer } from './support/test-server.js';

const FOLDER = 'owned-shop/listings';
const host = useLoopbackImageHost(FOLDER);
const server = useTestServer(() => host.serverEnv());
const api = server.api;

async function upload(user: TestUser): Promise<UploadResponse> {
  const ticket = (await api.post<{ data: DirectUploadTicket }>('/api/uploads/signature', { token: user.token })).body.data;
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, String(value));
  form.append('file', new Blob([await smallPng()], { type: 'image/png' }), 'photo.png');
  return (await (await fetch(ticket.uploadUrl, { method: 'POST', body: form })).json()) as UploadResponse;
}

function variantsOf(url: string): string[] {
  const parsed = new URL(url);
  return [
    `${url}?x=1`,
    `${url}#a`,
    `${parsed.protocol}//user:pass@${parsed.host}${parsed.pathname}`,
    `${parsed.origin}${parsed.pathname.replace('/image/upload/', '/image/./upload/')}`,
  ];
}

describe('a directly uploaded image belongs to one listing, whatever URL names it', () => {
  it('stores the canonical URL built from the signed public id and version, and refuses every variant for a second listing, by anyone', async () => {
    const [owner, other] = [await buildAgent(server.db), await buildAgent(server.db)];
    const categoryId = (await buildCategory(server.db)).id;
    const fields = { price: 10, categoryId, attributes: { brand: 'Apple', model: 'X', storage: '64GB' } };
    const response = await upload(owner);

    const first = await api.post('/api/listings', { token: owner.token, json: { ...fields, title: 'First', imageRefs: [{ ...response, secure_url: `${response.secure_url}?tracking=1` }] } });
    expect(first.status).toBe(201);
    expect(first.body.data.images).toEqual([response.secure_url]);

    for (const variant of variantsOf(response.secure_url)) {
      for (const user of [owner, other]) {
        const second = await api.post('/api/listings', { token: user.token, json: { ...fields, title: 'Second', imageRefs: [{ ...response, secure_url: variant }] } });
        expect(second.status, variant).toBe(409);
      }
    }
  });

  it('refuses one upload named under several URL variants in one request as an image named twice, storing nothing', async () => {
    const owner = await buildAgent(server.db);
    const categoryId = (await buildCategory(server.db)).id;
    const response = await upload(owner);
    const variants = variantsOf(response.secure_url);
    const imageRefs = [response, ...variants.map((variant) => ({ ...response, secure_url: variant }))];

    const refused = await api.post('/api/listings', {
      token: owner.token,
      json: { title: 'Named five times', price: 10, categoryId, attributes: { brand: 'Apple', model: 'X', storage: '64GB' }, imageRefs },
    });

    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      success: false,
      code: 'VALIDATION_FAILED',
      error: 'imageRefs must not name an image twice',
      details: variants.map((variant, index) => ({ field: `imageRefs[${index + 1}]`, message: 'names an image already named', received: variant })),
    });
    expect(await server.db.select().from(listings).where(eq(listings.title, 'Named five times'))).toEqual([]);
    const [record] = await server.db.select().from(directUploads).where(eq(directUploads.publicId, response.public_id));
    expect(record?.attachedAt).toBeNull();
    expect(host.images.has(response.public_id)).toBe(true);
  });
});
