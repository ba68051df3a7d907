import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCategory, buildListing, PHONE_RULES } from './support/catalog-factories.js';
import { buildAgent } from './support/factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
const shop = useShop(server);
let tablets: { id: string; displayName: string };

beforeAll(async () => {
  tablets = await buildCategory(server.db, { schemaRules: PHONE_RULES });
});

async function rows(query: ReturnType<typeof sql>): Promise<unknown[]> {
  return ((await server.db.execute(query)) as unknown as { rows: unknown[] }).rows;
}

/** The statistics tables, in a stable order, as the triggers left them. */
async function statistics() {
  return {
    totals: await rows(sql`select "categoryId", status, listings, value::text, stock, commissioned, "commissionPercentSum"::text, "commissionValue"::text
      from listing_totals where listings <> 0 order by 1, 2`),
    agents: await rows(sql`select "agentId", status, listings from agent_listing_totals where listings <> 0 order by 1, 2`),
    values: await rows(sql`select "categoryId", field, value, listings from listing_attribute_values order by 1, 2, 3`),
  };
}

/** The search terms (migrations 0017 and 0030), in a stable order, as the trigger left them. */
function searchTerms() {
  return rows(sql`select kind, term, text, listings from search_terms order by 1, 2`);
}

/** Asset figures counted straight from the listings out of the trash, as the statistics must report them. */
async function recountedAssets(): Promise<Record<string, unknown>> {
  const [totals] = await rows(sql`select count(*)::int as "totalAssets", coalesce(round(sum(price), 2), 0)::float as "totalValue",
    coalesce(sum("stockQuantity"), 0)::int as "totalStock" from listings where "deletedAt" is null`);
  return totals as Record<string, unknown>;
}

const create = (body: Record<string, unknown>) => api.post('/api/listings', { token: shop.agent.token, json: { categoryId: shop.category.id, price: 100, ...body } });
const update = (id: string, body: Record<string, unknown>) => api.patch(`/api/listings/${id}`, { token: shop.agent.token, json: body });

describe('listing statistics kept by triggers', () => {
  it('match a recount from the listings after every kind of write', async () => {
    const created = await Promise.all(
      [
        { title: 'A', attributes: { brand: 'Apple', model: 'iPhone 15', storage: '128GB', hasWarranty: true }, price: 999.99, stockQuantity: 3 },
        { title: 'B', attributes: { brand: 'Samsung', model: 'S24', storage: '256GB', batteryHealth: 91 }, price: 850.5 },
        { title: 'C', attributes: { brand: 'Apple', model: 'iPhone 14', storage: '128GB', condition: 'Used - Good' }, price: 640 },
        { title: 'D', attributes: { brand: 'Google', model: 'Pixel 8', storage: '128GB' }, price: 520, status: 'PENDING' },
      ].map(create),
    );
    expect(created.map((response) => response.status)).toEqual([201, 201, 201, 201]);
    const [a, b, c, d] = created.map((response) => response.body.data.id as string) as [string, string, string, string];
    await buildListing(server.db, { categoryId: tablets.id, agentId: shop.agent.id, status: 'ARCHIVED', price: 300, stockQuantity: 2 });

    expect((await update(a, { price: 949.99, attributes: { brand: 'Apple', model: 'iPhone 15', storage: '256GB' } })).status).toBe(200);
    expect((await update(a, { title: 'A renamed', description: 'Boxed, with AirPods and a case-mate-protector-sleeve' })).status).toBe(200);
    expect((await update(a, { price: 1999 })).status).toBe(200);
    expect((await update(b, { status: 'SOLD' })).status).toBe(200);
    expect((await update(c, { categoryId: tablets.id })).status).toBe(200);
    expect((await update(d, { status: 'AVAILABLE', stockQuantity: 4 })).status).toBe(200);
    expect((await api.get(`/api/public/listings/${a}`)).status).toBe(200);
    expect((await api.patch(`/api/commissions/listing/${a}`, { token: shop.admin.token, json: { commissionPercent: 5 } })).status).toBe(200);
    expect((await api.patch(`/api/commissions/listing/${b}`, { token: shop.admin.token, json: { commissionPercent: 12.5 } })).status).toBe(200);
    expect((await api.patch(`/api/commissions/listing/${b}`, { token: shop.admin.token, json: { commissionPercent: 7.25 } })).status).toBe(200);
    expect((await api.patch(`/api/commissions/listing/${d}`, { token: shop.admin.token, json: { commissionPercent: 3 } })).status).toBe(200);
    expect((await api.patch(`/api/commissions/listing/${d}`, { token: shop.admin.token, json: { commissionPercent: null } })).status).toBe(200);
    expect((await api.delete(`/api/listings/${c}`, { token: shop.agent.token })).status).toBe(200);
    // A listing out of the trash and back counts as before; one left in it counts as none.
    expect((await api.delete(`/api/listings/${a}`, { token: shop.agent.token })).status).toBe(200);
    expect((await api.post(`/api/listings/${a}/restore`, { token: shop.agent.token })).status).toBe(200);
    // An agent who leaves: their listings stay, with no agent, and leave the agent's totals.
    const leaving = await buildAgent(server.db);
    const kept = await api.post('/api/listings', { token: shop.admin.token, json: { categoryId: shop.category.id, price: 70, title: 'E', agentId: leaving.id, attributes: { brand: 'Apple', model: 'SE', storage: '64GB' } } });
    expect(kept.status).toBe(201);
    expect((await api.delete(`/api/auth/agents/${leaving.id}`, { token: shop.admin.token })).status).toBe(200);

    const statisticsKept = await statistics();
    const termsKept = await searchTerms();
    // Words of a description are counted where they are, and a title's words as such too.
    for (const word of ['airpods', 'sleeve', 'case-mate-protector-sleeve']) expect(termsKept).toContainEqual({ kind: 'text', term: word, text: word, listings: 1 });
    expect(termsKept).toContainEqual({ kind: 'word', term: 'renamed', text: 'renamed', listings: 1 });
    await server.db.execute(sql`select listing_statistics_rebuild()`);
    expect(statisticsKept).toEqual(await statistics());
    expect(termsKept).toEqual(await searchTerms());

    const stats = await api.get('/api/commissions/asset-stats', { token: shop.admin.token });
    expect(stats.body.data).toMatchObject(await recountedAssets());
    const filters = await api.get(`/api/public/filter-options?category=${encodeURIComponent(shop.category.displayName)}`);
    expect(filters.status).toBe(200);
    expect(filters.body.data.brand.options).toEqual(['Apple', 'Google']);
    expect(filters.body.data.storage.options).toEqual(['64GB', '128GB', '256GB']);
    expect(filters.body.data.batteryHealth.options).toEqual([]);
  });

  it('drop an attribute value once no available listing of the category has it', async () => {
    const response = await create({ title: 'Rare', attributes: { brand: 'Nothing', model: 'Phone 2', storage: '512GB' } });
    const id: string = response.body.data.id;
    const offered = () => rows(sql`select listings from listing_attribute_values where "categoryId" = ${shop.category.id} and field = 'brand' and value = 'Nothing'`);
    expect(await offered()).toEqual([{ listings: 1 }]);
    expect((await update(id, { status: 'ARCHIVED' })).status).toBe(200);
    expect(await offered()).toEqual([]);
  });

  it('leave the statistics alone when a write changes no counted column', async () => {
    const [listing] = await rows(sql`select id from listings where status = 'AVAILABLE' and "deletedAt" is null limit 1`);
    const before = { statistics: await statistics(), terms: await searchTerms() };
    const { id } = listing as { id: string };
    expect((await api.get(`/api/public/listings/${id}`)).status).toBe(200);
    expect((await api.post(`/api/public/listings/${id}/inquiry`, { json: { method: 'call' } })).status).toBe(200);
    expect({ statistics: await statistics(), terms: await searchTerms() }).toEqual(before);
    const renamed = await api.patch(`/api/listings/${id}`, { token: shop.admin.token, json: { title: 'Renamed', description: 'Still the same phone' } });
    expect(renamed.status).toBe(200);
    expect(await statistics()).toEqual(before.statistics);
  });
});

describe('an attribute value too long for a term of the search index', () => {
  it('is filtered on through the same digest the document holds', async () => {
    // 123 characters, 243 bytes: past the 200 bytes a term holds whole.
    const color = `${'é'.repeat(120)}red`;
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Long attribute', attributes: { brand: 'Apple', color } });
    const found = await api.get(`/api/public/listings?color=${encodeURIComponent(color)}`);
    expect(found.body.data.map((item: { id: string }) => item.id)).toEqual([listing.id]);
  });
});
