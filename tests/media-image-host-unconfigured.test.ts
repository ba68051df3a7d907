import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { listings } from '../lib/db/schema.js';
import { buildCategory } from './support/catalog-factories.js';
import { buildAgent, type TestUser } from './support/factories.js';
import { useTestServer } from './support/test-server.js';

// The image host is chosen but none of its credentials are set.
delete process.env.CLOUDINARY_URL;
const server = useTestServer({ STORAGE_PROVIDER: 'cloudinary', CLOUDINARY_CLOUD_NAME: '', CLOUDINARY_API_KEY: '', CLOUDINARY_API_SECRET: '' });
const api = server.api;
let agent: TestUser;
let categoryId: string;

beforeAll(async () => {
  agent = await buildAgent(server.db);
  categoryId = (await buildCategory(server.db)).id;
});

describe('direct uploads without image host credentials', () => {
  it('answers 503 for a signature', async () => {
    const response = await api.post('/api/uploads/signature', { token: agent.token });
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ success: false, code: 'DEPENDENCY_UNAVAILABLE', error: 'The image host is not configured' });
    expect(response.headers.get('retry-after')).toBe('5');
  });

  it('answers 503 for a listing naming imageRefs, storing nothing', async () => {
    const imageRefs = [
      {
        public_id: 'brostechnology/listings/photo',
        version: 1,
        signature: 'a'.repeat(40),
        secure_url: 'https://res.cloudinary.com/shop/image/upload/v1/brostechnology/listings/photo.webp',
      },
    ];
    const response = await api.post('/api/listings', {
      token: agent.token,
      json: { title: 'Unhosted', price: 10, categoryId, attributes: { brand: 'Apple', model: 'iPhone', storage: '64GB' }, imageRefs },
    });
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ success: false, code: 'DEPENDENCY_UNAVAILABLE', error: 'The image host is not configured' });
    expect(await server.db.select().from(listings).where(eq(listings.title, 'Unhosted'))).toHaveLength(0);
  });
});
