import crypto from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { findCategoryByCodeOrDisplayName } from '../lib/categories/queries.js';
import { categories, listings, users, type SchemaRule } from '../lib/db/schema.js';
import { buildCategory, buildListing, PHONE_RULES } from './support/catalog-factories.js';
import { buildAdmin, expiredToken } from './support/factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
const shop = useShop(server);

const unique = () => crypto.randomBytes(4).toString('hex').toUpperCase();

async function storedCategory(id: string) {
  const [row] = await server.db.select().from(categories).where(eq(categories.id, id));
  return row;
}

async function categoryCount(): Promise<number> {
  return (await server.db.select({ id: categories.id }).from(categories)).length;
}

const WATCH_RULES: SchemaRule[] = [
  { field: 'brand', type: 'string', required: true },
  { field: 'caseSize', type: 'select', required: false, options: ['41mm', '45mm'] },
  { field: 'hasWarranty', type: 'boolean', required: false },
];

describe('GET /api/categories', () => {
  it('lists every category by display name with its listing count under both names, without a token', async () => {
    const suffix = unique();
    const busy = await buildCategory(server.db, { displayName: `B busy ${suffix}` });
    const idle = await buildCategory(server.db, { displayName: `A idle ${suffix}` });
    await buildListing(server.db, { categoryId: busy.id, agentId: shop.agent.id });
    await buildListing(server.db, { categoryId: busy.id, agentId: null, status: 'SOLD' });

    const response = await api.get('/api/categories');

    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const ids: string[] = response.body.data.map((category: { id: string }) => category.id);
    expect(ids.indexOf(idle.id)).toBeLessThan(ids.indexOf(busy.id));
    const presentedBusy = response.body.data.find((category: { id: string }) => category.id === busy.id);
    expect(presentedBusy).toEqual({
      id: busy.id,
      name: busy.name,
      displayName: busy.displayName,
      icon: 'smartphone',
      schemaRules: PHONE_RULES,
      createdAt: busy.createdAt.toISOString(),
      updatedAt: busy.updatedAt.toISOString(),
      listingCount: 2,
      _count: { listings: 2 },
    });
    const presentedIdle = response.body.data.find((category: { id: string }) => category.id === idle.id);
    expect(presentedIdle).toMatchObject({ listingCount: 0, _count: { listings: 0 } });
    expect(response.body.data).toHaveLength(await categoryCount());
  });
});

describe('GET /api/categories/:id', () => {
  it('returns one category with its listing count, without a token', async () => {
    const category = await buildCategory(server.db);
    await buildListing(server.db, { categoryId: category.id, agentId: shop.agent.id });

    const response = await api.get(`/api/categories/${category.id}`);

    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: category.id,
      name: category.name,
      displayName: category.displayName,
      schemaRules: PHONE_RULES,
      listingCount: 1,
      _count: { listings: 1 },
    });
  });

  it('answers 404 naming an unknown id', async () => {
    const id = crypto.randomUUID();
    const response = await api.get(`/api/categories/${id}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: `Category with id "${id}" not found` });
  });

  it('answers 400 for an id that is not a UUID', async () => {
    const response = await api.get('/api/categories/phones');
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([{ field: 'id', message: 'must be a valid UUID', received: 'phones' }]);
  });
});

describe('POST /api/categories', () => {
  it('creates a category with its code in upper snake case and rules defaulting to optional', async () => {
    const suffix = unique();
    const response = await api.post('/api/categories', {
      token: shop.admin.token,
      json: {
        name: `  smart watches ${suffix} `,
        displayName: ` Smart Watches ${suffix} `,
        icon: 'watch',
        schemaRules: [
          { field: 'brand', type: 'string', required: true },
          { field: 'caseSize', type: 'select', options: ['41mm', '45mm'] },
          { field: 'hasWarranty', type: 'boolean' },
        ],
      },
    });

    expect(response.status).toBe(201);
    const data = response.body.data;
    expect(data).toMatchObject({
      name: `SMART_WATCHES_${suffix}`,
      displayName: `Smart Watches ${suffix}`,
      icon: 'watch',
      schemaRules: WATCH_RULES,
      listingCount: 0,
      _count: { listings: 0 },
    });
    const stored = await storedCategory(data.id);
    expect(stored).toMatchObject({ name: `SMART_WATCHES_${suffix}`, displayName: `Smart Watches ${suffix}`, icon: 'watch', schemaRules: WATCH_RULES });
    expect(stored!.createdAt.toISOString()).toBe(data.createdAt);
  });

  it.each([
    ['smartWatches', 'SMART_WATCHES'],
    ['Tablets / Laptops', 'TABLETS_LAPTOPS'],
    ['e-readers', 'E_READERS'],
    ['GAME_CONSOLES', 'GAME_CONSOLES'],
  ])('stores the name %j as %j', async (name, code) => {
    const suffix = unique();
    const response = await api.post('/api/categories', { token: shop.admin.token, json: { name: `${name} ${suffix}`, displayName: `${name} ${suffix}` } });
    expect(response.status).toBe(201);
    expect(response.body.data.name).toBe(`${code}_${suffix}`);
    expect(response.body.data).toMatchObject({ icon: 'tag', schemaRules: [] });
    expect((await storedCategory(response.body.data.id))!.name).toBe(`${code}_${suffix}`);
  });

  it('refuses a missing name and display name with details', async () => {
    const before = await categoryCount();
    const response = await api.post('/api/categories', { token: shop.admin.token, json: { icon: 'box' } });
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.details).toEqual([
      { field: 'name', message: 'is required' },
      { field: 'displayName', message: 'is required' },
    ]);
    expect(await categoryCount()).toBe(before);
  });

  it('refuses a name that normalizes to nothing', async () => {
    const before = await categoryCount();
    const response = await api.post('/api/categories', { token: shop.admin.token, json: { name: ' -/- ', displayName: 'Nothing' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Invalid request body: name: must contain at least one letter or digit');
    expect(response.body.details).toEqual([{ field: 'name', message: 'must contain at least one letter or digit', received: '' }]);
    expect(await categoryCount()).toBe(before);
  });

  it.each([
    ['an unknown type', [{ field: 'brand', type: 'color' }], 'schemaRules.0.type', 'type must be one of string, number, boolean, select'],
    ['a rule that is not an object', ['brand'], 'schemaRules.0', 'must be a rule object'],
    ['a missing field name', [{ type: 'string' }], 'schemaRules.0.field', 'is required'],
    ['an empty field name', [{ field: ' ', type: 'string' }], 'schemaRules.0.field', 'must not be empty'],
    ['a field name that is not an identifier', [{ field: 'screen size', type: 'string' }], 'schemaRules.0.field', 'must start with a letter or underscore and contain only letters, digits and underscores'],
    ['a duplicate field name', [{ field: 'brand', type: 'string' }, { field: 'brand', type: 'number' }], 'schemaRules.1.field', 'duplicate field "brand"'],
    ['a select without options', [{ field: 'size', type: 'select' }], 'schemaRules.0.options', 'is required'],
    ['a select with no options', [{ field: 'size', type: 'select', options: [] }], 'schemaRules.0.options', 'a select field needs at least one option'],
    ['a select with an empty option', [{ field: 'size', type: 'select', options: ['S', ''] }], 'schemaRules.0.options.1', 'must not be empty'],
    ['a select with repeated options', [{ field: 'size', type: 'select', options: ['S', 'S'] }], 'schemaRules.0.options', 'options must be unique'],
    ['a select whose options are not strings', [{ field: 'size', type: 'select', options: [1, 2] }], 'schemaRules.0.options.0', 'must be a string'],
    ['options on a string field', [{ field: 'brand', type: 'string', options: ['A'] }], 'schemaRules.0.options', 'only select fields take options'],
    ['a required flag that is not a boolean', [{ field: 'brand', type: 'string', required: 'yes' }], 'schemaRules.0.required', 'must be true or false'],
    ['rules that are not an array', { brand: 'string' }, 'schemaRules', 'must be an array of rules'],
  ])('refuses schemaRules with %s', async (_case, schemaRules, field, message) => {
    const before = await categoryCount();
    const response = await api.post('/api/categories', {
      token: shop.admin.token,
      json: { name: `rules ${unique()}`, displayName: 'Rules', schemaRules },
    });
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field, message }));
    expect(await categoryCount()).toBe(before);
  });

  it('answers 409 naming the name field for a name that exists once normalized, creating nothing', async () => {
    const existing = await buildCategory(server.db, { name: `TAKEN_${unique()}` });
    const before = await categoryCount();
    const response = await api.post('/api/categories', {
      token: shop.admin.token,
      json: { name: existing.name.toLowerCase().replace('_', ' '), displayName: 'Another' },
    });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, code: 'ALREADY_EXISTS', error: 'A record with that value already exists', details: [{ field: 'name', message: 'name already exists' }] });
    expect(await categoryCount()).toBe(before);
  });

  it('answers 400 for malformed JSON', async () => {
    const response = await api.post('/api/categories', { token: shop.admin.token, raw: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, code: 'MALFORMED_BODY', error: 'Malformed JSON body' });
  });
});

describe('PATCH /api/categories/:id', () => {
  it('changes only the fields sent and returns the category with its count', async () => {
    const category = await buildCategory(server.db);
    await buildListing(server.db, { categoryId: category.id, agentId: shop.agent.id });

    const response = await api.patch(`/api/categories/${category.id}`, { token: shop.admin.token, json: { displayName: ' Mobile Phones ' } });

    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: category.id,
      name: category.name,
      displayName: 'Mobile Phones',
      icon: 'smartphone',
      schemaRules: PHONE_RULES,
      listingCount: 1,
      _count: { listings: 1 },
    });
    const stored = await storedCategory(category.id);
    expect(stored).toMatchObject({ name: category.name, displayName: 'Mobile Phones', icon: 'smartphone', schemaRules: PHONE_RULES });
    expect(stored!.updatedAt.getTime()).toBeGreaterThanOrEqual(category.updatedAt.getTime());
    expect(response.body.data.updatedAt).toBe(stored!.updatedAt.toISOString());
  });

  it('normalizes a new name and replaces the rules without rewriting existing listings', async () => {
    const category = await buildCategory(server.db);
    const listing = await buildListing(server.db, { categoryId: category.id, agentId: shop.agent.id, attributes: { brand: 'Apple', model: 'iPhone 15', storage: '256GB' } });
    const suffix = unique();

    const response = await api.patch(`/api/categories/${category.id}`, {
      token: shop.admin.token,
      json: { name: `handsets ${suffix}`, schemaRules: WATCH_RULES },
    });

    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ name: `HANDSETS_${suffix}`, schemaRules: WATCH_RULES });
    expect(await storedCategory(category.id)).toMatchObject({ name: `HANDSETS_${suffix}`, schemaRules: WATCH_RULES, displayName: category.displayName });
    const [storedListing] = await server.db.select().from(listings).where(eq(listings.id, listing.id));
    expect(storedListing!.attributes).toEqual({ brand: 'Apple', model: 'iPhone 15', storage: '256GB' });
    expect(storedListing!.updatedAt.toISOString()).toBe(listing.updatedAt.toISOString());
  });

  it('refuses an empty update', async () => {
    const category = await buildCategory(server.db);
    const response = await api.patch(`/api/categories/${category.id}`, { token: shop.admin.token, json: {} });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Invalid request body: send at least one of name, displayName, icon, schemaRules');
    expect(await storedCategory(category.id)).toEqual(category);
  });

  it('refuses invalid rules with details, changing nothing', async () => {
    const category = await buildCategory(server.db);
    const response = await api.patch(`/api/categories/${category.id}`, {
      token: shop.admin.token,
      json: { displayName: 'Changed', schemaRules: [{ field: 'size', type: 'select' }] },
    });
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([{ field: 'schemaRules.0.options', message: 'is required' }]);
    expect(await storedCategory(category.id)).toEqual(category);
  });

  it("answers 409 naming the name field when renamed to another category's name, changing nothing", async () => {
    const taken = await buildCategory(server.db);
    const category = await buildCategory(server.db);
    const response = await api.patch(`/api/categories/${category.id}`, { token: shop.admin.token, json: { name: taken.name, displayName: 'Changed' } });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, code: 'ALREADY_EXISTS', error: 'A record with that value already exists', details: [{ field: 'name', message: 'name already exists' }] });
    expect(await storedCategory(category.id)).toEqual(category);
  });

  it('answers 404 for an unknown id', async () => {
    const id = crypto.randomUUID();
    const response = await api.patch(`/api/categories/${id}`, { token: shop.admin.token, json: { displayName: 'Ghost' } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: `Category with id "${id}" not found` });
    expect(await storedCategory(id)).toBeUndefined();
  });
});

describe('DELETE /api/categories/:id', () => {
  it('deletes a category no listing uses', async () => {
    const category = await buildCategory(server.db);
    const response = await api.delete(`/api/categories/${category.id}`, { token: shop.admin.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { id: category.id } });
    expect(await storedCategory(category.id)).toBeUndefined();
  });

  it('answers 409 naming how many listings use the category, changing nothing', async () => {
    const category = await buildCategory(server.db);
    const first = await buildListing(server.db, { categoryId: category.id, agentId: shop.agent.id });
    const second = await buildListing(server.db, { categoryId: category.id, agentId: null, status: 'ARCHIVED' });

    const response = await api.delete(`/api/categories/${category.id}`, { token: shop.admin.token });

    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, code: 'CONFLICT', error: `Category "${category.displayName}" cannot be deleted: 2 listings use it` });
    expect(await storedCategory(category.id)).toEqual(category);
    const remaining = await server.db.select({ id: listings.id }).from(listings).where(inArray(listings.id, [first.id, second.id]));
    expect(remaining).toHaveLength(2);
  });

  it('names a single listing in the singular', async () => {
    const category = await buildCategory(server.db);
    await buildListing(server.db, { categoryId: category.id, agentId: shop.agent.id });
    const response = await api.delete(`/api/categories/${category.id}`, { token: shop.admin.token });
    expect(response.status).toBe(409);
    expect(response.body.error).toBe(`Category "${category.displayName}" cannot be deleted: 1 listing uses it`);
  });

  it('answers 404 for an unknown id', async () => {
    const id = crypto.randomUUID();
    const response = await api.delete(`/api/categories/${id}`, { token: shop.admin.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: `Category with id "${id}" not found` });
  });
});

describe('category writes: security', () => {
  let category: Awaited<ReturnType<typeof buildCategory>>;
  let expired: string;
  let deletedUserToken: string;

  beforeAll(async () => {
    category = await buildCategory(server.db);
    expired = await expiredToken(shop.admin);
    const doomed = await buildAdmin(server.db);
    deletedUserToken = doomed.token;
    await server.db.delete(users).where(eq(users.id, doomed.id));
  });

  const writes = [
    { name: 'POST /api/categories', send: (token?: string) => api.post('/api/categories', { token, json: { name: `blocked ${unique()}`, displayName: 'Blocked' } }) },
    { name: 'PATCH /api/categories/:id', send: (token?: string) => api.patch(`/api/categories/${category.id}`, { token, json: { displayName: 'Blocked' } }) },
    { name: 'DELETE /api/categories/:id', send: (token?: string) => api.delete(`/api/categories/${category.id}`, { token }) },
  ];

  async function expectNothingChanged(before: number) {
    expect(await categoryCount()).toBe(before);
    expect(await storedCategory(category.id)).toEqual(category);
  }

  describe.each(writes)('$name', ({ send }) => {
    it('refuses a request without a token', async () => {
      const before = await categoryCount();
      const response = await send();
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Missing or malformed Authorization header' });
      await expectNothingChanged(before);
    });

    it('refuses a malformed token', async () => {
      const before = await categoryCount();
      const response = await send('not-a-jwt');
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Invalid token' });
      await expectNothingChanged(before);
    });

    it("refuses an expired administrator's token", async () => {
      const before = await categoryCount();
      const response = await send(expired);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'Token has expired' });
      await expectNothingChanged(before);
    });

    it("refuses a deleted administrator's token", async () => {
      const before = await categoryCount();
      const response = await send(deletedUserToken);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ success: false, code: 'UNAUTHENTICATED', error: 'User no longer exists' });
      await expectNothingChanged(before);
    });

    it('refuses an agent: category writes are for administrators only', async () => {
      const before = await categoryCount();
      const response = await send(shop.agent.token);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ success: false, code: 'FORBIDDEN', error: 'Role "AGENT" is not authorized for this resource' });
      await expectNothingChanged(before);
    });
  });
});

describe('findCategoryByCodeOrDisplayName', () => {
  it('matches the code or the display name ignoring case, preferring a code match', async () => {
    const suffix = unique();
    const phones = await buildCategory(server.db, { name: `HANDHELDS_${suffix}`, displayName: `Phones ${suffix}` });
    const decoy = await buildCategory(server.db, { name: `DECOY_${suffix}`, displayName: `handhelds_${suffix}` });

    expect((await findCategoryByCodeOrDisplayName(server.db, `phones ${suffix.toLowerCase()}`))?.id).toBe(phones.id);
    expect((await findCategoryByCodeOrDisplayName(server.db, ` handhelds_${suffix} `))?.id).toBe(phones.id);
    expect((await findCategoryByCodeOrDisplayName(server.db, `decoy_${suffix}`))?.id).toBe(decoy.id);
  });

  it('treats underscores and percent signs literally and finds nothing for an unknown value', async () => {
    const suffix = unique();
    await buildCategory(server.db, { name: `SAFARI_${suffix}`, displayName: `Wild-${suffix}` });
    expect(await findCategoryByCodeOrDisplayName(server.db, 'safari%')).toBeUndefined();
    expect(await findCategoryByCodeOrDisplayName(server.db, `wild_${suffix}`)).toBeUndefined();
    expect(await findCategoryByCodeOrDisplayName(server.db, '   ')).toBeUndefined();
  });
});
