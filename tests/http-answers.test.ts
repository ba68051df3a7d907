import { describe, expect, it } from 'vitest';
import { captureLog } from './support/capture-log.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
const shop = useShop(server);

describe('error answers', () => {
  it('clip what they echo and list at most 50 details', async () => {
    const { admin, agent, category } = shop;
    const attributes = { brand: 'Apple', model: 'X', storage: '64GB', ...Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`unknown${index}`, 'x'])) };
    const response = await api.post('/api/listings', { token: agent.token, json: { title: 'Many keys', price: 1, categoryId: category.id, attributes } });
    expect(response.status).toBe(422);
    expect(response.body.details).toHaveLength(50);
    const long = await api.put('/api/settings', { token: admin.token, json: { siteName: 7, location: 'x'.repeat(500_000) } });
    expect(long.status).toBe(400);
    expect(long.body.details).toContainEqual(expect.objectContaining({ field: 'siteName' }));
    expect(long.text.length).toBeLessThan(2000);
  });
});

describe('every answer', () => {
  it('carries nosniff, on success, error and unknown routes alike', async () => {
    for (const path of ['/api/health', '/api/listings', '/api/nope/at/all', '/api/public/listings']) {
      expect((await api.get(path)).headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it("carries the service's own request id; a caller's is logged beside it, never in its place", async () => {
    let id: string | null = null;
    const lines = await captureLog(async () => {
      id = (await api.get('/api/health', { headers: { 'x-request-id': 'caller-chosen-id-123' } })).headers.get('x-request-id');
    });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.find((line) => line.msg === 'request' && line.requestId === id)).toMatchObject({ clientRequestId: 'caller-chosen-id-123' });
  });
});
