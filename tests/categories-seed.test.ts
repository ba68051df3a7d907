import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { categories, users } from '../lib/db/schema.js';
import { buildCategory } from './support/catalog-factories.js';
import { buildAdmin, buildAgent, expiredToken, type TestUser } from './support/factories.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
let admin: TestUser;
let agent: TestUser;

beforeAll(async () => {
  admin = await buildAdmin(server.db);
  agent = await buildAgent(server.db);
});

const DEFAULT_NAMES = ['PHONES', 'TABLETS_LAPTOPS', 'LAPTOPS', 'EARBUDS', 'SMARTWATCHES'];
const CONDITION = { field: 'condition', type: 'select', required: false, options: ['Brand New', 'Used - Like New', 'Used - Good', 'Used - Fair'] };

const allCategories = () => server.db.select().from(categories).orderBy(asc(categories.name));
const seed = (token = admin.token) => api.get('/api/admin/seed-categories', { token });

describe('GET /api/admin/seed-categories', () => {
  // First in the file: it needs a database where only the category it plants exists.
  it('creates only the missing defaults, leaving an existing one and other categories untouched', async () => {
    const customLaptops = await buildCategory(server.db, {
      name: 'LAPTOPS',
      displayName: 'Notebooks',
      icon: 'custom',
      schemaRules: [{ field: 'brand', type: 'string', required: false }],
    });
    const unrelated = await buildCategory(server.db, { name: 'CAMERAS', displayName: 'Cameras' });

    const response = await seed();

    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data.created).toEqual(['PHONES', 'TABLETS_LAPTOPS', 'EARBUDS', 'SMARTWATCHES']);
    expect(response.body.data.existing).toEqual(['LAPTOPS']);
    const presented = response.body.data.categories;
    expect(presented.map((category: { name: string }) => category.name).sort()).toEqual([...DEFAULT_NAMES].sort());
    expect(presented.find((category: { name: string }) => category.name === 'LAPTOPS')).toMatchObject({
      id: customLaptops.id,
      displayName: 'Notebooks',
      icon: 'custom',
      listingCount: 0,
      _count: { listings: 0 },
    });
    const stored = await allCategories();
    expect(stored.map((row) => row.name)).toEqual(['CAMERAS', 'EARBUDS', 'LAPTOPS', 'PHONES', 'SMARTWATCHES', 'TABLETS_LAPTOPS']);
    expect(stored.find((row) => row.name === 'LAPTOPS')).toEqual(customLaptops);
    expect(stored.find((row) => row.name === 'CAMERAS')).toEqual(unrelated);
  });

  it('stores the default categories with their display names, icons and rules', async () => {
    await seed();
    const stored = await allCategories();
    const byName = (name: string) => stored.find((row) => row.name === name)!;
    const rule = (name: string, field: string) => byName(name).schemaRules.find((item) => item.field === field);

    expect(byName('PHONES')).toMatchObject({ displayName: 'Phones', icon: 'smartphone' });
    expect(byName('TABLETS_LAPTOPS')).toMatchObject({ displayName: 'Tablets / Laptops', icon: 'tablet' });
    expect(byName('EARBUDS')).toMatchObject({ displayName: 'Earbuds', icon: 'headphones' });
    expect(byName('SMARTWATCHES')).toMatchObject({ displayName: 'Smartwatches', icon: 'watch' });
    for (const name of ['PHONES', 'TABLETS_LAPTOPS', 'EARBUDS', 'SMARTWATCHES']) {
      expect(rule(name, 'brand')).toEqual({ field: 'brand', type: 'string', required: true });
      expect(rule(name, 'model')).toEqual({ field: 'model', type: 'string', required: true });
      expect(rule(name, 'condition')).toEqual(CONDITION);
      expect(rule(name, 'color')).toEqual({ field: 'color', type: 'string', required: false });
      expect(rule(name, 'hasWarranty')).toEqual({ field: 'hasWarranty', type: 'boolean', required: false });
    }
    expect(rule('PHONES', 'storage')).toEqual({ field: 'storage', type: 'select', required: true, options: ['64GB', '128GB', '256GB', '512GB', '1TB'] });
    expect(rule('PHONES', 'ram')).toMatchObject({ type: 'select', options: ['4GB', '6GB', '8GB', '12GB', '16GB'] });
    expect(rule('PHONES', 'batteryHealth')).toEqual({ field: 'batteryHealth', type: 'string', required: false });
    expect(rule('PHONES', 'carrier')?.options).toEqual(expect.arrayContaining(['Unlocked', 'Other']));
    for (const field of ['storage', 'ram', 'processor', 'screenSize']) expect(rule('TABLETS_LAPTOPS', field)).toMatchObject({ type: 'select' });
    expect(rule('SMARTWATCHES', 'caseSize')).toMatchObject({ type: 'select', options: expect.arrayContaining(['38mm', '49mm']) });
    expect(rule('SMARTWATCHES', 'connectivity')).toMatchObject({ type: 'select', options: ['GPS', 'GPS + Cellular'] });
    expect(rule('EARBUDS', 'noiseCancelling')).toEqual({ field: 'noiseCancelling', type: 'boolean', required: false });
  });

  it('gives laptops storage, ram, processor, screen size, gpu and os when it creates them', async () => {
    await server.db.delete(categories).where(eq(categories.name, 'LAPTOPS'));
    const response = await seed();
    expect(response.body.data.created).toEqual(['LAPTOPS']);
    const [laptops] = await server.db.select().from(categories).where(eq(categories.name, 'LAPTOPS'));
    const rule = (field: string) => laptops!.schemaRules.find((item) => item.field === field);
    expect(laptops).toMatchObject({ displayName: 'Laptops', icon: 'laptop' });
    expect(rule('storage')).toMatchObject({ type: 'select', options: ['256GB', '512GB', '1TB', '2TB'] });
    expect(rule('ram')).toMatchObject({ type: 'select', options: ['8GB', '16GB', '32GB', '64GB'] });
    expect(rule('processor')?.type).toBe('select');
    expect(rule('screenSize')?.options).toEqual(expect.arrayContaining(['13"', '17"']));
    expect(rule('gpu')).toEqual({ field: 'gpu', type: 'string', required: false });
    expect(rule('os')).toMatchObject({ type: 'select', options: ['Windows 11', 'macOS', 'Linux', 'ChromeOS'] });
    expect(rule('brand')).toEqual({ field: 'brand', type: 'string', required: true });
  });

  it('is repeatable: another run creates nothing and changes nothing', async () => {
    await seed();
    const before = await allCategories();

    const response = await seed();

    expect(response.status).toBe(200);
    expect(response.body.data.created).toEqual([]);
    expect(response.body.data.existing).toEqual(DEFAULT_NAMES);
    expect(response.body.data.categories).toHaveLength(DEFAULT_NAMES.length);
    expect(await allCategories()).toEqual(before);
  });

  it('seeds rules that the category endpoints accept', async () => {
    await seed();
    for (const row of await allCategories()) {
      if (!DEFAULT_NAMES.includes(row.name)) continue;
      const response = await api.patch(`/api/categories/${row.id}`, { token: admin.token, json: { schemaRules: row.schemaRules } });
      expect(response.status).toBe(200);
      expect(response.body.data.schemaRules).toEqual(row.schemaRules);
    }
  });
});

describe('GET /api/admin/seed-categories: security', () => {
  async function expectRefused(token: string | undefined, status: number, error: string) {
    await server.db.delete(categories).where(eq(categories.name, 'EARBUDS'));
    const before = await allCategories();
    const response = await api.get('/api/admin/seed-categories', { token });
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ success: false, code: status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN', error });
    expect(await allCategories()).toEqual(before);
  }

  it('refuses a request without a token, creating nothing', () => expectRefused(undefined, 401, 'Missing or malformed Authorization header'));

  it('refuses a malformed token, creating nothing', () => expectRefused('not-a-jwt', 401, 'Invalid token'));

  it("refuses an expired administrator's token, creating nothing", async () => expectRefused(await expiredToken(admin), 401, 'Token has expired'));

  it("refuses a deleted administrator's token, creating nothing", async () => {
    const doomed = await buildAdmin(server.db);
    await server.db.delete(users).where(eq(users.id, doomed.id));
    await expectRefused(doomed.token, 401, 'User no longer exists');
  });

  it('refuses an agent, creating nothing', () => expectRefused(agent.token, 403, 'Role "AGENT" is not authorized for this resource'));
});
