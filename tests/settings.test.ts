import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { settings, users } from '../lib/db/schema.js';
import { buildAdmin, buildAgent, expiredToken, type TestUser } from './support/factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const EMPTY = {
  siteName: '',
  chatNumber: '',
  callNumber1: '',
  callNumber2: '',
  messengerHandle: '',
  contactEmail: '',
  socialUrl1: '',
  socialUrl2: '',
  location: '',
  businessHours: '',
  shopGoogleMapUrl: '',
  shopMapAddress: '',
};

const server = useTestServer();
const api = server.api;
const shop = useShop(server);

async function storedSettings(): Promise<Record<string, unknown>> {
  const rows = await server.db.select({ key: settings.key, value: settings.value }).from(settings);
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

async function clearSettings(): Promise<void> {
  await server.db.delete(settings);
}

describe('GET /api/settings', () => {
  it('answers every one of the twelve keys with "" when nothing is stored, without a token', async () => {
    await clearSettings();
    const response = await api.get('/api/settings');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: EMPTY });
  });

  it('shows stored values, reads a stored non-string value as text and leaves out unknown keys', async () => {
    await clearSettings();
    await server.db.insert(settings).values([
      { key: 'siteName', value: 'Bros Technology' },
      { key: 'callNumber1', value: 251911000000 },
      { key: 'location', value: null },
      { key: 'legacyBanner', value: 'old' },
    ]);
    const response = await api.get('/api/settings');
    expect(response.body.data).toEqual({ ...EMPTY, siteName: 'Bros Technology', callNumber1: '251911000000' });
  });
});

describe('PUT /api/settings', () => {
  describe('happy', () => {
    it('writes the given keys, trimmed, and answers the full flat object', async () => {
      await clearSettings();
      const response = await api.put('/api/settings', {
        token: shop.admin.token,
        json: { siteName: '  Bros Technology ', chatNumber: '+251911000000', shopGoogleMapUrl: 'https://maps.example/?q=shop' },
      });
      expect(response.status).toBe(200);
      const expected = { ...EMPTY, siteName: 'Bros Technology', chatNumber: '+251911000000', shopGoogleMapUrl: 'https://maps.example/?q=shop' };
      expect(response.body).toEqual({ success: true, data: expected });
      expect(await storedSettings()).toEqual({ siteName: 'Bros Technology', chatNumber: '+251911000000', shopGoogleMapUrl: 'https://maps.example/?q=shop' });
      expect((await api.get('/api/settings')).body.data).toEqual(expected);
    });

    it('keeps the keys it is not sent and clears a key sent as null', async () => {
      await clearSettings();
      await api.put('/api/settings', { token: shop.admin.token, json: { siteName: 'Shop', location: 'Bole, Addis Ababa' } });
      const response = await api.put('/api/settings', { token: shop.admin.token, json: { location: null, businessHours: 'Mon-Sat 9-18' } });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ ...EMPTY, siteName: 'Shop', businessHours: 'Mon-Sat 9-18' });
      expect(await storedSettings()).toEqual({ siteName: 'Shop', location: null, businessHours: 'Mon-Sat 9-18' });
    });

    it('answers the current settings for an empty object and changes nothing', async () => {
      await clearSettings();
      await api.put('/api/settings', { token: shop.admin.token, json: { messengerHandle: 'brosshop' } });
      const response = await api.put('/api/settings', { token: shop.admin.token, json: {} });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ ...EMPTY, messengerHandle: 'brosshop' });
      expect(await storedSettings()).toEqual({ messengerHandle: 'brosshop' });
    });

    it('accepts a value of exactly 2000 characters', async () => {
      const response = await api.put('/api/settings', { token: shop.admin.token, json: { shopMapAddress: 'a'.repeat(2000) } });
      expect(response.status).toBe(200);
      expect(response.body.data.shopMapAddress).toHaveLength(2000);
    });
  });

  describe('error', () => {
    it('refuses an unknown key with 400 and writes none of the others', async () => {
      await clearSettings();
      const response = await api.put('/api/settings', { token: shop.admin.token, json: { siteName: 'Shop', bannerText: 'Sale' } });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        success: false,
        details: [{ field: 'bannerText', message: 'is not a known setting', received: 'bannerText' }],
      });
      expect(await storedSettings()).toEqual({});
    });

    it('refuses a value that is not a string or null', async () => {
      const response = await api.put('/api/settings', { token: shop.admin.token, json: { callNumber1: 251911000000 } });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ field: 'callNumber1', message: 'must be a string or null', received: 251911000000 }]);
    });

    it('refuses a value over 2000 characters', async () => {
      const response = await api.put('/api/settings', { token: shop.admin.token, json: { location: 'x'.repeat(2001) } });
      expect(response.status).toBe(400);
      expect(response.body.details[0]).toMatchObject({ field: 'location', message: 'must be at most 2000 characters' });
    });

    it('refuses a body that is not an object', async () => {
      const response = await api.put('/api/settings', { token: shop.admin.token, json: 'siteName' });
      expect(response.status).toBe(400);
      expect(response.body.details[0]).toMatchObject({ message: 'must be a JSON object' });
    });

    it('refuses malformed JSON', async () => {
      const response = await api.put('/api/settings', { token: shop.admin.token, raw: '{"siteName":', headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ success: false, code: 'MALFORMED_BODY', error: 'Malformed JSON body' });
    });
  });

  describe('security', () => {
    let agent: TestUser;

    beforeAll(async () => {
      agent = await buildAgent(server.db);
    });

    const attempt = (headers: Record<string, string>) => api.put('/api/settings', { headers, json: { siteName: 'Hijacked' } });

    async function expectUnchanged(): Promise<void> {
      expect(Object.values(await storedSettings())).not.toContain('Hijacked');
    }

    it('refuses a request without a token', async () => {
      const response = await attempt({});
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Missing or malformed Authorization header' });
      await expectUnchanged();
    });

    it('refuses a malformed token', async () => {
      const response = await attempt({ authorization: 'Bearer not.a.jwt' });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Invalid token' });
      await expectUnchanged();
    });

    it('refuses an expired token', async () => {
      const response = await attempt({ authorization: `Bearer ${await expiredToken(shop.admin)}` });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Token has expired' });
      await expectUnchanged();
    });

    it("refuses a deleted administrator's token", async () => {
      const gone = await buildAdmin(server.db);
      await server.db.delete(users).where(eq(users.id, gone.id));
      const response = await attempt({ authorization: `Bearer ${gone.token}` });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'User no longer exists' });
      await expectUnchanged();
    });

    it('refuses an agent with 403', async () => {
      const response = await attempt({ authorization: `Bearer ${agent.token}` });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Role "AGENT" is not authorized for this resource' });
      await expectUnchanged();
    });
  });
});
