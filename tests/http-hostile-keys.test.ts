import { describe, expect, it } from 'vitest';
import type { SchemaRule } from '../lib/db/schema.js';
import { buildCategory, buildListing } from './support/catalog-factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
const shop = useShop(server);
const RESERVED = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

describe('names that reach object internals', () => {
  it.each(RESERVED)('refuses a category rule field named %s with 400', async (field) => {
    const response = await api.post('/api/categories', {
      token: shop.admin.token,
      json: { name: `HOSTILE_${field.replace(/\W/g, '')}`.toUpperCase(), displayName: `Hostile ${field}`, schemaRules: [{ field, type: 'string' }] },
    });
    expect(response.status).toBe(400);
    expect(response.body.details).toContainEqual(expect.objectContaining({ message: 'must not be a name JavaScript objects reserve (such as constructor or __proto__)' }));
  });

  it('serves filter options and listings of a category stored with such fields before they were refused, never a 500', async () => {
    const rules: SchemaRule[] = RESERVED.map((field) => ({ field, type: 'string', required: false }));
    const category = await buildCategory(server.db, { name: 'STORED_HOSTILE', displayName: 'Stored Hostile', schemaRules: [{ field: 'brand', type: 'string', required: true }, ...rules] });
    await buildListing(server.db, { categoryId: category.id, attributes: { brand: 'Acme' } });
    const options = await api.get('/api/public/filter-options?category=Stored%20Hostile');
    expect(options.status).toBe(200);
    expect(options.body.data.brand.options).toEqual(['Acme']);
    for (const field of RESERVED) expect(options.body.data[field]?.options ?? []).toEqual([]);
    const created = await api.post('/api/listings', { token: shop.agent.token, json: { title: 'Plain', price: 5, categoryId: category.id, attributes: { brand: 'Acme' } } });
    expect(created.status).toBe(201);
    expect(created.body.data.attributes).toEqual({ brand: 'Acme' });
  });

  it('refuses a listing attribute named __proto__ or constructor as not an attribute of the category, instead of dropping it', async () => {
    const { agent, category } = shop;
    for (const body of ['{"brand":"A","model":"B","storage":"64GB","__proto__":{"x":1}}', '{"brand":"A","model":"B","storage":"64GB","constructor":"x"}']) {
      const response = await api.post('/api/listings', {
        token: agent.token,
        raw: `{"title":"T","price":1,"categoryId":"${category.id}","attributes":${body}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(422);
      expect(response.body.details[0]).toMatchObject({ message: 'is not an attribute of this category' });
    }
  });

  it('reads query keys such as __proto__ as plain keys, which filter nothing', async () => {
    const plain = await api.get('/api/public/listings');
    expect(plain.status).toBe(200);
    for (const query of ['__proto__=1&__proto__=2', 'constructor=x', 'toString=1&hasOwnProperty=2', '__proto__[brand]=x']) {
      const response = await api.get(`/api/public/listings?${query}`);
      expect(response.status, query).toBe(200);
      expect(response.body.data, query).toEqual(plain.body.data);
    }
  });
});
