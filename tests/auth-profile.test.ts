import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../lib/db/schema.js';
import { buildAgent, type TestUser } from './support/factories.js';
import { imageForm, imageInfo, jpegOfSize, largeJpeg, notAnImage, smallPng, storedFiles } from './support/images.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;

const EMPTY_SOCIALS = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`social_${i + 1}`, null]));

async function stored(user: TestUser) {
  const [row] = await server.db.select().from(users).where(eq(users.id, user.id));
  return row!;
}

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

describe('GET /api/auth/me', () => {
  it('answers exactly the profile fields, never the password or reset fields', async () => {
    const agent = await buildAgent(server.db);
    await server.db
      .update(users)
      .set({ passwordResetToken: 'f'.repeat(64), passwordResetExpires: sql`now() + interval '15 minutes'`, passwordResetAttempts: 2 })
      .where(eq(users.id, agent.id));
    const response = await api.get('/api/auth/me', { token: agent.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        id: agent.id,
        email: agent.email,
        name: agent.name,
        phone: agent.phone,
        role: 'AGENT',
        profileImage: null,
        ...EMPTY_SOCIALS,
        website: null,
        customSocials: [],
      },
    });
    expect(response.text).not.toContain((await stored(agent)).password);
    expect(response.text).not.toContain('f'.repeat(64));
  });
});

describe('PUT /api/auth/me: happy path', () => {
  it('updates the profile from a multipart form and answers the updated profile', async () => {
    const agent = await buildAgent(server.db);
    const customSocials = [{ name: 'Shop', url: 'https://shop.example.com/agent' }];
    const response = await api.put('/api/auth/me', {
      token: agent.token,
      form: form({
        name: 'Renamed Agent',
        phone: '+15550999',
        social_1: 'https://facebook.com/agent',
        social_8: 'https://youtube.com/@agent',
        website: 'https://agent.example.com',
        customSocials: JSON.stringify(customSocials),
      }),
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      id: agent.id,
      email: agent.email,
      name: 'Renamed Agent',
      phone: '+15550999',
      role: 'AGENT',
      profileImage: null,
      ...EMPTY_SOCIALS,
      social_1: 'https://facebook.com/agent',
      social_8: 'https://youtube.com/@agent',
      website: 'https://agent.example.com',
      customSocials,
    });
    expect(await stored(agent)).toMatchObject({ name: 'Renamed Agent', phone: '+15550999', social_1: 'https://facebook.com/agent', customSocials });
  });

  it('accepts the same fields as JSON, with customSocials as an array', async () => {
    const agent = await buildAgent(server.db);
    const customSocials = [{ name: 'Blog', url: 'http://blog.example.com' }];
    const response = await api.put('/api/auth/me', { token: agent.token, json: { social_5: 'https://t.me/agent', customSocials } });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ social_5: 'https://t.me/agent', customSocials, name: agent.name });
    expect(await stored(agent)).toMatchObject({ social_5: 'https://t.me/agent', customSocials });
  });

  it('keeps omitted fields and clears a field sent empty', async () => {
    const agent = await buildAgent(server.db);
    await api.put('/api/auth/me', { token: agent.token, json: { social_2: 'https://x.com/agent', website: 'https://a.example.com' } });
    const response = await api.put('/api/auth/me', { token: agent.token, form: form({ social_2: '', customSocials: '' }) });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ social_2: null, website: 'https://a.example.com', customSocials: [], name: agent.name });
    expect(await stored(agent)).toMatchObject({ social_2: null, website: 'https://a.example.com' });
  });

  it('answers the unchanged profile for an empty body', async () => {
    const agent = await buildAgent(server.db);
    const response = await api.put('/api/auth/me', { token: agent.token });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id: agent.id, name: agent.name, email: agent.email });
  });

  it('changes the e-mail (stored lower-cased) so the account signs in with the new one', async () => {
    const agent = await buildAgent(server.db);
    const response = await api.put('/api/auth/me', { token: agent.token, form: form({ email: `New-${agent.email.toUpperCase()}`, currentPassword: agent.password }) });
    expect(response.status).toBe(200);
    expect(response.body.data.email).toBe(`new-${agent.email}`);
    expect((await stored(agent)).email).toBe(`new-${agent.email}`);
    expect((await api.post('/api/auth/login', { json: { email: `new-${agent.email}`, password: agent.password } })).status).toBe(200);
    expect((await api.post('/api/auth/login', { json: { email: agent.email, password: agent.password } })).status).toBe(401);
  });

  it('ignores role and password fields: a profile write cannot promote or re-key an account', async () => {
    const agent = await buildAgent(server.db);
    const before = await stored(agent);
    const response = await api.put('/api/auth/me', {
      token: agent.token,
      json: { name: 'Still Agent', role: 'SUPER_ADMIN', password: 'new-password-1', passwordResetToken: 'x' },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.role).toBe('AGENT');
    const after = await stored(agent);
    expect(after).toMatchObject({ name: 'Still Agent', role: 'AGENT', password: before.password, passwordResetToken: null });
  });
});

describe('PUT /api/auth/me: errors', () => {
  it('answers 409 naming the email field for an e-mail another account has, changing nothing', async () => {
    const agent = await buildAgent(server.db);
    const other = await buildAgent(server.db);
    const response = await api.put('/api/auth/me', { token: agent.token, json: { email: other.email.toUpperCase(), name: 'Not Applied', currentPassword: agent.password } });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, code: 'ALREADY_EXISTS', error: 'A record with that value already exists', details: [{ field: 'email', message: 'email already exists' }] });
    expect(await stored(agent)).toMatchObject({ email: agent.email, name: agent.name });
  });

  it.each([
    ['a link that is not http(s)', { website: 'javascript:alert(1)' }, 'website', 'must be an http(s) URL'],
    ['a social field that is not a URL', { social_3: 'instagram' }, 'social_3', 'must be an http(s) URL'],
    ['customSocials that is not JSON', { customSocials: '[{name' }, 'customSocials', 'must be a JSON array of { name, url }'],
    ['customSocials that is not an array', { customSocials: '{"name":"a"}' }, 'customSocials', 'must be an array of { name, url }'],
    ['a custom social with a bad URL', { customSocials: '[{"name":"Shop","url":"ftp://x"}]' }, 'customSocials.0.url', 'must be an http(s) URL'],
    ['a custom social without a name', { customSocials: '[{"url":"https://x.example"}]' }, 'customSocials.0.name', 'is required'],
    ['an empty name', { name: ' ' }, 'name', 'must not be empty'],
    ['a malformed e-mail', { email: 'nope' }, 'email', 'must be a valid e-mail address'],
  ])('refuses %s with 400 naming the field and changes nothing', async (_label, fields, field, message) => {
    const agent = await buildAgent(server.db);
    const before = await stored(agent);
    const response = await api.put('/api/auth/me', { token: agent.token, form: form({ phone: '+19990000', ...fields }) });
    expect(response.status).toBe(400);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field, message }));
    expect(await stored(agent)).toEqual(before);
  });

  it('refuses more than 20 custom socials', async () => {
    const agent = await buildAgent(server.db);
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `Link ${i}`, url: `https://example.com/${i}` }));
    const response = await api.put('/api/auth/me', { token: agent.token, json: { customSocials: many } });
    expect(response.status).toBe(400);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field: 'customSocials', message: 'must have at most 20 entries' }));
  });

  it('stores a profile image as a WebP of at most 1200 px and deletes the one it replaces', async () => {
    const agent = await buildAgent(server.db);
    const first = await api.put('/api/auth/me', { token: agent.token, form: imageForm({ name: 'With Picture' }, [{ field: 'profileImage', bytes: await largeJpeg() }]) });
    expect(first.status).toBe(200);
    expect(first.body.data.name).toBe('With Picture');
    const firstStored = (await stored(agent)).profileImage!;
    expect(firstStored).toMatch(/^\/uploads\/[0-9a-f-]{36}\.webp$/);
    expect(first.body.data.profileImage).toBe(`${server.baseUrl}${firstStored}`);
    const served = await fetch(first.body.data.profileImage);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const firstFile = path.basename(firstStored);
    const info = await imageInfo(fs.readFileSync(path.join(server.uploadDir, firstFile)));
    expect(info).toMatchObject({ format: 'webp', width: 1200 });

    const second = await api.put('/api/auth/me', { token: agent.token, form: imageForm({}, [{ field: 'profileImage', bytes: await smallPng(), type: 'image/png', name: 'me.png' }]) });
    expect(second.status).toBe(200);
    expect(second.body.data.profileImage).not.toBe(first.body.data.profileImage);
    expect(`${server.baseUrl}${(await stored(agent)).profileImage}`).toBe(second.body.data.profileImage);
    expect(storedFiles(server.uploadDir)).not.toContain(firstFile);
    expect(storedFiles(server.uploadDir)).toContain(path.basename(second.body.data.profileImage));
  });

  it('answers the profile image as an absolute URL on API_BASE_URL, in the profile read as in the write', async () => {
    const agent = await buildAgent(server.db);
    const written = await api.put('/api/auth/me', { token: agent.token, form: imageForm({}, [{ field: 'profileImage', bytes: await smallPng(), type: 'image/png' }]) });
    expect(written.status).toBe(200);
    const storedImage = (await stored(agent)).profileImage!;
    const read = await api.get('/api/auth/me', { token: agent.token });
    expect(read.status).toBe(200);
    expect(read.body.data.profileImage).toBe(`${server.baseUrl}${storedImage}`);
    expect(written.body.data.profileImage).toBe(read.body.data.profileImage);
    expect((await fetch(read.body.data.profileImage)).status).toBe(200);
  });

  it('refuses a profile image that is not an image, or over 5 MB, and stores nothing', async () => {
    const agent = await buildAgent(server.db);
    const before = storedFiles(server.uploadDir);
    const notImage = await api.put('/api/auth/me', { token: agent.token, form: imageForm({ name: 'Nope' }, [{ field: 'profileImage', bytes: notAnImage(), type: 'image/png' }]) });
    expect(notImage.status).toBe(400);
    expect(notImage.body).toEqual({ success: false, code: 'UNSUPPORTED_IMAGE', error: 'Unsupported image file' });
    const tooLarge = await api.put('/api/auth/me', { token: agent.token, form: imageForm({}, [{ field: 'profileImage', bytes: await jpegOfSize(5.5 * 1024 * 1024) }]) });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.error).toMatch(/too large/);
    const twoFiles = await api.put('/api/auth/me', { token: agent.token, form: imageForm({}, [{ field: 'profileImage', bytes: await smallPng() }, { field: 'profileImage', bytes: await smallPng() }]) });
    expect(twoFiles.status).toBe(400);
    expect(storedFiles(server.uploadDir)).toEqual(before);
    const row = await stored(agent);
    expect(row.name).toBe(agent.name);
    expect(row.profileImage).toBeNull();
  });

  it('refuses a body that is neither multipart nor JSON with 415', async () => {
    const agent = await buildAgent(server.db);
    const response = await api.put('/api/auth/me', { token: agent.token, raw: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE', error: 'Content-Type must be multipart/form-data or application/json' });
    expect((await stored(agent)).name).toBe(agent.name);
  });
});
