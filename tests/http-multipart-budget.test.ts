import { describe, expect, it } from 'vitest';
import { listings } from '../lib/db/schema.js';
import { buildCategory } from './support/catalog-factories.js';
import { buildAgent } from './support/factories.js';
import { storedFiles, smallPng } from './support/images.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;

async function listingCount(): Promise<number> {
  return (await server.db.select({ id: listings.id }).from(listings)).length;
}

describe('multipart text fields share one budget, like a JSON body', () => {
  it('answers 413 once the text fields pass 1 MB in all, storing nothing', async () => {
    const agent = await buildAgent(server.db);
    const categoryId = (await buildCategory(server.db)).id;
    const before = await listingCount();
    const form = new FormData();
    form.append('title', 'Abusive');
    form.append('price', '1');
    form.append('categoryId', categoryId);
    for (let index = 0; index < 20; index += 1) form.append('description', 'd'.repeat(200_000));
    form.append('images', new Blob([await smallPng()], { type: 'image/png' }), 'photo.png');
    const response = await api.post('/api/listings', { token: agent.token, form });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ success: false, code: 'PAYLOAD_TOO_LARGE', error: 'Form fields too large: at most 1 MB in all' });
    expect(await listingCount()).toBe(before);
    expect(storedFiles(server.uploadDir)).toEqual([]);
  });

  it('refuses a text field the form does not define, instead of holding it until validation drops it', async () => {
    const agent = await buildAgent(server.db);
    const form = new FormData();
    form.append('title', 'Unknown field');
    form.append('notAField', 'x'.repeat(500_000));
    const response = await api.post('/api/listings', { token: agent.token, form });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Unexpected field "notAField"');
  });
});
