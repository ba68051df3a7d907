import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { directUploads } from '../lib/db/schema.js';
import type { DirectUploadTicket } from '../lib/media/direct-upload.js';
import { buildCategory } from './support/catalog-factories.js';
import { buildAgent, type TestUser } from './support/factories.js';
import { smallPng } from './support/images.js';
import { useLoopbackImageHost, type UploadResponse } from './support/loopback-image-host.js';
import { useTestServer } from './support/test-server.js';
import { expectTooMany } from './support/refusals.js';

const FOLDER = 'ticket-shop/listings';
const CRON_SECRET = 'upload-tickets-cron-secret';
const host = useLoopbackImageHost(FOLDER);
const server = useTestServer(() => ({ ...host.serverEnv(), CRON_SECRET }));
const api = server.api;

async function ticketFor(user: TestUser) {
  return api.post<{ data: DirectUploadTicket }>('/api/uploads/signature', { token: user.token });
}

async function upload(ticket: DirectUploadTicket): Promise<UploadResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, String(value));
  form.append('file', new Blob([await smallPng()], { type: 'image/png' }), 'photo.png');
  const response = await fetch(ticket.uploadUrl, { method: 'POST', body: form });
  expect(response.status).toBe(200);
  return (await response.json()) as UploadResponse;
}

describe('upload tickets', () => {
  it('make one image each: uploading twice with a ticket replaces its image instead of adding one', async () => {
    const agent = await buildAgent(server.db);
    const ticket = (await ticketFor(agent)).body.data;
    const first = await upload(ticket);
    const second = await upload(ticket);
    expect(second.public_id).toBe(first.public_id);
    expect(first.public_id).toBe(ticket.publicId);
    expect([...host.images.keys()].filter((id) => id === ticket.publicId)).toHaveLength(1);
  });

  it('are throttled per user: 60 an hour, then 429 with Retry-After, and another user is not held to it', async () => {
    const [greedy, other] = [await buildAgent(server.db), await buildAgent(server.db)];
    const answers = [];
    for (let index = 0; index < 61; index += 1) answers.push(await ticketFor(greedy));
    expect(answers.map((answer) => answer.status)).toEqual([...Array(60).fill(200), 429]);
    expectTooMany(answers[60]!);
    const others = await ticketFor(other);
    expect(others.status).toBe(200);
    expect(others.body.data.signature).toEqual(expect.any(String));
  });

  it('leave an image no listing took for a day to the sweeper, which removes it from the image host, and keep the ones a listing took', async () => {
    const agent = await buildAgent(server.db);
    const categoryId = (await buildCategory(server.db)).id;
    const unused = await upload((await ticketFor(agent)).body.data);
    const taken = await upload((await ticketFor(agent)).body.data);
    const created = await api.post('/api/listings', {
      token: agent.token,
      json: { title: 'Takes one', price: 1, categoryId, attributes: { brand: 'A', model: 'B', storage: '64GB' }, imageRefs: [taken] },
    });
    expect(created.status).toBe(201);
    await server.db.update(directUploads).set({ issuedAt: sql`now() - interval '25 hours'` }).where(sql`${directUploads.publicId} in (${unused.public_id}, ${taken.public_id})`);

    const swept = await api.get('/api/cron/sweep', { token: CRON_SECRET });
    expect(swept.body.data.unattachedUploadsRemoved).toBe(1);
    expect(host.destroyed).toContain(unused.public_id);
    expect(host.destroyed).not.toContain(taken.public_id);
    expect(host.images.has(taken.public_id)).toBe(true);
    expect(await server.db.select().from(directUploads).where(eq(directUploads.publicId, unused.public_id))).toEqual([]);
  });
});
