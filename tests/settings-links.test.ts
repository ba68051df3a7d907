import { describe, expect, it } from 'vitest';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
const shop = useShop(server);

describe('settings links', () => {
  it.each(['socialUrl1', 'socialUrl2', 'shopGoogleMapUrl'])('refuses a %s that is not an http(s) URL, changing nothing', async (key) => {
    for (const value of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'not a url']) {
      const response = await api.put('/api/settings', { token: shop.admin.token, json: { [key]: value } });
      expect(response.status).toBe(400);
      expect(response.body.details).toContainEqual(expect.objectContaining({ field: key, message: 'must be an http(s) URL or empty' }));
    }
    expect((await api.get('/api/settings')).body.data[key]).toBe('');
    const accepted = await api.put('/api/settings', { token: shop.admin.token, json: { [key]: 'https://maps.example.com/shop' } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data[key]).toBe('https://maps.example.com/shop');
    const cleared = await api.put('/api/settings', { token: shop.admin.token, json: { [key]: '' } });
    expect(cleared.status).toBe(200);
    expect((await api.get('/api/settings')).body.data[key]).toBe('');
  });
});
