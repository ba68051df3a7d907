import { describe, expect, it } from 'vitest';
import { buildAgent } from './support/factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

/** LEGACY_CLIENT_FIELDS=1: the original's field names beside the spec's. Off, answers are the spec's (every other test file). */
const server = useTestServer({ LEGACY_CLIENT_FIELDS: '1' });
const api = server.api;
const shop = useShop(server);

describe('LEGACY_CLIENT_FIELDS=1', () => {
  it("answers settings with the original's keys beside the spec's, and its kept keys", async () => {
    const saved = await api.put('/api/settings', { token: shop.admin.token, json: { chatNumber: '+15550123', socialUrl1: 'https://facebook.com/shop', tiktokUrl: 'https://tiktok.com/@shop' } });
    expect(saved.status).toBe(200);
    const read = (await api.get('/api/settings')).body.data;
    expect(read).toMatchObject({
      chatNumber: '+15550123',
      whatsappNumber: '+15550123',
      socialUrl1: 'https://facebook.com/shop',
      facebookUrl: 'https://facebook.com/shop',
      telegramHandle: '',
      instagramUrl: '',
      tiktokUrl: 'https://tiktok.com/@shop',
      youtubeUrl: '',
    });
    expect(saved.body.data).toEqual(read);
  });

  it('answers agent codes with isActive and uses', async () => {
    const created = await api.post('/api/auth/agent-codes', { token: shop.admin.token, json: { name: 'Legacy Invite' } });
    expect(created.body.data).toMatchObject({ isActive: true, uses: 0 });
    await api.delete(`/api/auth/agent-codes/${created.body.data.id}`, { token: shop.admin.token });
    const listed = (await api.get('/api/auth/agent-codes', { token: shop.admin.token })).body.data.find((code: { id: string }) => code.id === created.body.data.id);
    expect(listed).toMatchObject({ isActive: false, uses: 0 });
  });

  it('answers the profile with firstName and lastName split from name', async () => {
    const agent = await buildAgent(server.db, { name: 'Ada Lovelace King' });
    expect((await api.get('/api/auth/me', { token: agent.token })).body.data).toMatchObject({ name: 'Ada Lovelace King', firstName: 'Ada', lastName: 'Lovelace King' });
    const renamed = await api.put('/api/auth/me', { token: agent.token, json: { name: 'Grace' } });
    expect(renamed.body.data).toMatchObject({ firstName: 'Grace', lastName: '' });
  });
});
