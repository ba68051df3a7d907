import { beforeAll, describe, expect, it } from 'vitest';
import { listings, type SchemaRule } from '../lib/db/schema.js';
import { COMMON_WORD_LISTINGS } from '../lib/storefront/word-expansion.js';
import { buildCategory, buildListing, PHONE_RULES } from './support/catalog-factories.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
const ids = (body: { data: Array<{ id: string }> }) => body.data.map((item) => item.id);
const search = async (query: string) => {
  const response = await api.get(`/api/public/listings?${query}`);
  expect(response.status).toBe(200);
  return ids(response.body);
};

describe('GET /api/public/listings: search that forgives typos and ranks by relevance', () => {
  let iphone13: Awaited<ReturnType<typeof buildListing>>;
  let iphone14: Awaited<ReturnType<typeof buildListing>>;
  let s23Ultra: Awaited<ReturnType<typeof buildListing>>;
  let a54: Awaited<ReturnType<typeof buildListing>>;
  let pixel: Awaited<ReturnType<typeof buildListing>>;

  beforeAll(async () => {
    const phones = await buildCategory(server.db, { name: 'SEARCH_PHONES', displayName: 'Search Phones', schemaRules: PHONE_RULES });
    const phone = (title: string, brand: string, model: string, price: number, minutes: number, description = 'Works perfectly.') =>
      buildListing(server.db, {
        categoryId: phones.id,
        title,
        description,
        price,
        attributes: { brand, model, storage: '128GB' },
        createdAt: minutesAgo(minutes),
      });
    iphone13 = await phone('iPhone 13 128GB', 'Apple', 'iPhone 13', 600, 5);
    s23Ultra = await phone('Galaxy S23 Ultra', 'Samsung', 'Galaxy S23 Ultra', 1000, 4);
    iphone14 = await phone('iPhone 14 Pro', 'Apple', 'iPhone 14 Pro', 900, 3);
    pixel = await phone('Pixel 8', 'Google', 'Pixel 8', 500, 2, 'Sharper photos than an iPhone 13.');
    a54 = await phone('Galaxy A54', 'Samsung', 'Galaxy A54', 350, 1);
    await buildListing(server.db, { categoryId: phones.id, title: 'iPhone 12 sold', status: 'SOLD', attributes: { brand: 'Apple', model: 'iPhone 12' } });
  });

  it.each([
    ['iphnoe', 'two letters swapped'],
    ['iphne', 'a letter missing'],
    ['iphonne', 'a letter added'],
    ['iphome', 'a letter wrong'],
    ['IPHNOE', 'another case'],
    ['ïphóne', 'accents'],
  ])('finds the iPhones, newest first, for %s (%s), then a description that names one', async (word) => {
    expect(await search(`q=${encodeURIComponent(word)}`)).toEqual([iphone14.id, iphone13.id, pixel.id]);
  });

  it('corrects brands and models as well as titles', async () => {
    expect(await search('q=galxy')).toEqual([a54.id, s23Ultra.id]);
    expect(await search('q=PIXEK')).toEqual([pixel.id]);
    expect(await search('q=samsnug')).toEqual([a54.id, s23Ultra.id]);
  });

  it('finds listings holding every word, in any order, each with its typos', async () => {
    expect(await search('q=ultra%20samsung')).toEqual([s23Ultra.id]);
    expect(await search('q=galxy%20ultra')).toEqual([s23Ultra.id]);
    expect(await search('q=s23%20iphone')).toEqual([]);
  });

  it('leaves short words and nonsense uncorrected', async () => {
    expect(await search('q=s24')).toEqual([]);
    expect(await search('q=qwertyuiop')).toEqual([]);
  });

  it('ranks title words first, then description-only matches, newest first within each', async () => {
    expect(await search('q=iphone')).toEqual([iphone14.id, iphone13.id, pixel.id]);
    // `13` is matched only whole, in a title, brand or model: the Pixel's description naming it is not.
    expect(await search('q=iphone%2013')).toEqual([iphone13.id]);
  });

  it('ranks every exact match above every typo match, however many newer typo matches there are, and pages across them', async () => {
    const phones = await buildCategory(server.db, { name: 'CROWDED_PHONES', displayName: 'Crowded Phones', schemaRules: PHONE_RULES });
    const exact = await buildListing(server.db, { categoryId: phones.id, title: 'Volla 22', attributes: { brand: 'Volla', model: '22' }, createdAt: minutesAgo(600) });
    // More newer typo matches than two pages hold.
    await server.db.execute(`insert into listings (title, description, price, "categoryId", attributes, "createdAt")
      select 'Vollla ' || n, 'Refurbished.', 100 + n, '${phones.id}', '{"brand":"Vollla","model":"V"}'::jsonb, now() - make_interval(mins => n)
      from generate_series(1, 220) as n`);
    const typos = (await server.db.execute(`select id from listings where "categoryId" = '${phones.id}' and title like 'Vollla %' order by "createdAt" desc, id desc`)) as unknown as {
      rows: Array<{ id: string }>;
    };
    const inOrder = [exact.id, ...typos.rows.map((row) => row.id)];
    expect(await search('category=Crowded%20Phones&q=volla&limit=3')).toEqual(inOrder.slice(0, 3));
    const second = await api.get('/api/public/listings?category=Crowded%20Phones&q=volla&limit=100&page=2');
    expect(ids(second.body)).toEqual(inOrder.slice(100, 200));
    expect(second.body.pagination).toMatchObject({ total: inOrder.length, totalExact: true });
    const last = await api.get(`/api/public/listings?category=Crowded%20Phones&q=volla&limit=100&page=3`);
    expect(ids(last.body)).toEqual(inOrder.slice(200));
  });

  it('ranks an exact match above a newer one that is a typo away', async () => {
    const phones = await buildCategory(server.db, { name: 'RANKED_PHONES', displayName: 'Ranked Phones', schemaRules: PHONE_RULES });
    const exact = await buildListing(server.db, { categoryId: phones.id, title: 'Nokia 3310', attributes: { brand: 'Nokia', model: '3310' }, createdAt: minutesAgo(30) });
    const typo = await buildListing(server.db, { categoryId: phones.id, title: 'Nokai 3310 spare', attributes: { brand: 'Nokai', model: '3310' }, createdAt: minutesAgo(1) });
    expect(await search('category=Ranked%20Phones&q=nokia')).toEqual([exact.id, typo.id]);
    expect(await search('category=Ranked%20Phones&q=nokia&sort=newest')).toEqual([typo.id, exact.id]);
  });

  it("matches a substring of a title, brand or model word, and only the beginning of a description's word", async () => {
    expect(await search('q=phon')).toEqual([iphone14.id, iphone13.id]);
    expect(await search('q=sharp')).toEqual([pixel.id]);
    expect(await search('q=arper')).toEqual([]);
    expect(await search('q=sharper%20photos')).toEqual([pixel.id]);
  });

  it('orders by newest, price up or price down when asked, with or without q', async () => {
    expect(await search('q=iphone&sort=newest')).toEqual([pixel.id, iphone14.id, iphone13.id]);
    expect(await search('q=iphone&sort=price_asc')).toEqual([pixel.id, iphone13.id, iphone14.id]);
    expect(await search('q=iphone&sort=price_desc')).toEqual([iphone14.id, iphone13.id, pixel.id]);
    expect(await search('category=search_phones&sort=price_asc')).toEqual([a54.id, pixel.id, iphone13.id, iphone14.id, s23Ultra.id]);
    expect(await search('category=search_phones&sort=price_desc')).toEqual([s23Ultra.id, iphone14.id, iphone13.id, pixel.id, a54.id]);
    expect(await search('category=search_phones')).toEqual([a54.id, pixel.id, iphone14.id, s23Ultra.id, iphone13.id]);
    expect(await search('category=search_phones&sort=relevance')).toEqual([a54.id, pixel.id, iphone14.id, s23Ultra.id, iphone13.id]);
  });

  it('finds a word held only by a description in every order, and counts it in the filter panel', async () => {
    for (const sort of ['relevance', 'newest', 'price_asc', 'price_desc']) {
      expect({ sort, found: await search(`q=sharper&sort=${sort}`) }).toEqual({ sort, found: [pixel.id] });
    }
    const panel = await api.get('/api/public/filter-options?q=sharper');
    expect(panel.status).toBe(200);
    expect(panel.body.total).toBe(1);
  });

  it('pages a relevance order and counts its matches', async () => {
    const first = await api.get('/api/public/listings?q=iphone&limit=2&page=1');
    expect(ids(first.body)).toEqual([iphone14.id, iphone13.id]);
    expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2, totalExact: true });
    const second = await api.get('/api/public/listings?q=iphone&limit=2&page=2');
    expect(ids(second.body)).toEqual([pixel.id]);
    const priced = await api.get('/api/public/listings?q=iphone&sort=price_asc&limit=1&page=2');
    expect(ids(priced.body)).toEqual([iphone13.id]);
    expect(priced.body.pagination).toEqual({ page: 2, limit: 1, total: 3, totalPages: 3, totalExact: true });
  });

  it('finds a listing by its new title after an edit, and no longer once sold', async () => {
    const phones = await buildCategory(server.db, { name: 'EDITED_PHONES', displayName: 'Edited Phones', schemaRules: PHONE_RULES });
    const listing = await buildListing(server.db, { categoryId: phones.id, title: 'Motorola Razr', attributes: { brand: 'Motorola', model: 'Razr' } });
    expect(await search('q=motorolla')).toEqual([listing.id]);
    await server.db.execute(`update listings set title = 'Fairphone 5', attributes = '{"brand":"Fairphone","model":"5"}' where id = '${listing.id}'`);
    expect(await search('q=motorolla')).toEqual([]);
    expect(await search('q=fairfone')).toEqual([listing.id]);
    await server.db.execute(`update listings set status = 'SOLD' where id = '${listing.id}'`);
    expect(await search('q=fairfone')).toEqual([]);
  });

  it('rejects an unknown sort with a 400 envelope', async () => {
    for (const sort of ['cheapest-first', 'PRICE_ASC']) {
      const response = await api.get(`/api/public/listings?q=iphone&sort=${sort}`);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, details: [{ field: 'sort', message: 'must be one of relevance, newest, price_asc, price_desc', received: sort }] });
    }
  });
});

describe('GET /api/public/suggest', () => {
  beforeAll(async () => {
    const phones = await buildCategory(server.db, { name: 'SUGGEST_PHONES', displayName: 'Suggest Phones', schemaRules: PHONE_RULES });
    const phone = (title: string, brand: string, model: string, status: 'AVAILABLE' | 'SOLD' = 'AVAILABLE') =>
      buildListing(server.db, { categoryId: phones.id, title, status, attributes: { brand, model, storage: '128GB' } });
    await phone('Xperia 1 V', 'Sony', 'Xperia 1 V');
    await phone('Xperia 1 V', 'Sony', 'Xperia 1 V');
    await phone('Xperia 10 IV', 'Sony', 'Xperia 10 IV');
    await phone('Xperia 5 II', 'Sony', 'Xperia 5 II', 'SOLD');
  });

  it('completes titles, brands, models and categories, with how many available listings each has', async () => {
    const response = await api.get('/api/public/suggest?q=xpe');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: [
        { text: 'Xperia 1 V', kind: 'model', count: 2 },
        { text: 'Xperia 1 V', kind: 'title', count: 2 },
        { text: 'Xperia 10 IV', kind: 'model', count: 1 },
        { text: 'Xperia 10 IV', kind: 'title', count: 1 },
      ],
    });
    const brand = await api.get('/api/public/suggest?q=so');
    expect(brand.body.data).toEqual([{ text: 'Sony', kind: 'brand', count: 3 }]);
    const category = await api.get('/api/public/suggest?q=suggest%20ph');
    expect(category.body.data).toEqual([{ text: 'Suggest Phones', kind: 'category', count: 3 }]);
  });

  it('completes a prefix a typo away, and a later word', async () => {
    const typo = await api.get('/api/public/suggest?q=xpre');
    expect(typo.body.data.map((item: { text: string; kind: string }) => `${item.kind}:${item.text}`)).toEqual([
      'model:Xperia 1 V',
      'title:Xperia 1 V',
      'model:Xperia 10 IV',
      'title:Xperia 10 IV',
    ]);
    const later = await api.get('/api/public/suggest?q=xperia%2010');
    expect(later.body.data).toEqual([
      { text: 'Xperia 10 IV', kind: 'model', count: 1 },
      { text: 'Xperia 10 IV', kind: 'title', count: 1 },
    ]);
  });

  it('puts the completions many listings carry first, and those as typed before those a typo away', async () => {
    const marsupials = await buildCategory(server.db, { name: 'MARSUPIAL_PHONES', displayName: 'Marsupial Phones', schemaRules: PHONE_RULES });
    const carried = (model: string, brand: string, count: number) =>
      Array.from({ length: count }, () => ({ categoryId: marsupials.id, title: model, description: 'Pouch.', price: 100, attributes: { brand, model, storage: '128GB' } }));
    // Nine models carried by as many listings as make a word common, one by one listing fewer, one by two.
    await server.db.insert(listings).values([
      ...Array.from({ length: 9 }, (_, index) => carried(`Quokka Q${index}`, 'Quokka', COMMON_WORD_LISTINGS)).flat(),
      ...carried('Quokka Rare', 'Quokka', COMMON_WORD_LISTINGS - 1),
      ...carried('Quoka Mini', 'Quoka', 2),
    ]);
    const suggested = async (text: string) => {
      const response = await api.get(`/api/public/suggest?q=${encodeURIComponent(text)}`);
      expect(response.status).toBe(200);
      return response.body.data.map((item: { text: string; kind: string; count: number }) => `${item.kind}:${item.text}:${item.count}`);
    };
    const common = COMMON_WORD_LISTINGS;
    const quokkas = 9 * common + common - 1;
    expect(await suggested('quokka')).toEqual([`brand:Quokka:${quokkas}`, ...[0, 1, 2, 3, 4, 5, 6].map((index) => `model:Quokka Q${index}:${common}`)]);
    expect(await suggested('quokka r')).toEqual([`model:Quokka Rare:${common - 1}`, `title:Quokka Rare:${common - 1}`]);
    expect(await suggested('quoka')).toEqual([
      'brand:Quoka:2',
      'model:Quoka Mini:2',
      'title:Quoka Mini:2',
      `brand:Quokka:${quokkas}`,
      ...[0, 1, 2, 3].map((index) => `model:Quokka Q${index}:${common}`),
    ]);
  });

  it('answers at most 8 suggestions', async () => {
    const phones = await buildCategory(server.db, { name: 'MANY_PHONES', displayName: 'Many Phones', schemaRules: PHONE_RULES });
    for (let index = 0; index < 6; index++) {
      await buildListing(server.db, { categoryId: phones.id, title: `Zenfone ${index}`, attributes: { brand: 'Asus', model: `Zenfone ${index}` } });
    }
    const response = await api.get('/api/public/suggest?q=zenfone');
    expect(response.body.data).toHaveLength(8);
  });

  it('rejects a q of one character, more than 100, or none with a 400 envelope', async () => {
    for (const [query, message] of [
      ['q=x', 'must be at least 2 characters'],
      [`q=${'x'.repeat(101)}`, 'must be at most 100 characters'],
      ['', 'is required'],
    ] as const) {
      const response = await api.get(`/api/public/suggest?${query}`);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, details: [{ field: 'q', message }] });
    }
  });
});

describe('GET /api/public/filter-options: counts beside each option', () => {
  const FACET_RULES: SchemaRule[] = [
    { field: 'brand', type: 'string', required: true },
    { field: 'storage', type: 'select', required: true, options: ['64GB', '128GB', '256GB'] },
    { field: 'condition', type: 'select', required: false, options: ['New', 'Used'] },
    { field: 'color', type: 'string', required: false },
  ];
  let category: Awaited<ReturnType<typeof buildCategory>>;

  beforeAll(async () => {
    category = await buildCategory(server.db, { name: 'FACET_PHONES', displayName: 'Facet Phones', schemaRules: FACET_RULES });
    const rows: Array<[string, string, string, string, number, string]> = [
      ['Apple iPhone 13', 'Apple', '128GB', 'New', 700, 'Black'],
      ['Apple iPhone 13', 'apple', '256GB', 'Used', 650, 'White'],
      ['Apple iPhone 12', 'Apple', '64GB', 'Used', 400, 'Black'],
      ['Samsung Galaxy S23', 'Samsung', '128GB', 'New', 800, 'Black'],
      ['Samsung Galaxy A54', 'Samsung', '128GB', 'Used', 300, 'Green'],
      ['Google Pixel 8', 'Google', '128GB', 'New', 550, 'White'],
    ];
    for (const [title, brand, storage, condition, price, color] of rows) {
      await buildListing(server.db, { categoryId: category.id, title, price, attributes: { brand, model: title, storage, condition, color } });
    }
    await buildListing(server.db, { categoryId: category.id, title: 'Sold Nokia', status: 'SOLD', attributes: { brand: 'Nokia', storage: '64GB' } });
  });

  /** The list's own count of `query` (a query string of filters). */
  async function listed(query: string): Promise<number> {
    const response = await api.get(`/api/public/listings?category=Facet%20Phones&page=1&limit=100&${query}`);
    expect(response.status).toBe(200);
    return response.body.pagination.total;
  }

  /** For every option of every field: its count equals the list's count with that option added to the other filters. */
  async function expectCountsOfTheList(filters: Record<string, string>) {
    const query = new URLSearchParams(filters).toString();
    const response = await api.get(`/api/public/filter-options?category=Facet%20Phones&${query}`);
    expect(response.status).toBe(200);
    expect(response.body.countsExact).toBe(true);
    expect(response.body.total).toBe(await listed(query));
    for (const { field } of FACET_RULES) {
      const entry = response.body.data[field];
      expect(Object.keys(entry.counts)).toEqual(entry.options);
      for (const option of entry.options as string[]) {
        const others = Object.fromEntries(Object.entries(filters).filter(([name]) => name !== field));
        expect({ field, option, count: entry.counts[option] }).toEqual({
          field,
          option,
          count: await listed(new URLSearchParams({ ...others, [field]: option }).toString()),
        });
      }
    }
    return response.body;
  }

  it('counts each option as the list would, a field\'s own selection not narrowing its own counts', async () => {
    const whole = await expectCountsOfTheList({});
    expect(whole.data.brand.counts).toEqual({ Apple: 3, apple: 3, Google: 1, Samsung: 2 });
    expect(whole.priceRange).toEqual({ min: 300, max: 800 });
    const apple = await expectCountsOfTheList({ brand: 'Apple' });
    expect(apple.data.brand.counts).toEqual({ Apple: 3, apple: 3, Google: 1, Samsung: 2 });
    expect(apple.data.storage.counts).toEqual({ '64GB': 1, '128GB': 1, '256GB': 1 });
    expect(apple.total).toBe(3);
    expect(apple.priceRange).toEqual({ min: 400, max: 700 });
    const used = await expectCountsOfTheList({ brand: 'Samsung', condition: 'New' });
    expect(used.data.storage.counts).toEqual({ '64GB': 0, '128GB': 1, '256GB': 0 });
    await expectCountsOfTheList({ q: 'iphnoe', storage: '128GB' });
    await expectCountsOfTheList({ q: 'galaxy', priceMax: '500' });
  });

  it('stays equal to the list after a create, an edit, a sale and a delete', async () => {
    const created = await buildListing(server.db, {
      categoryId: category.id,
      title: 'Sony Xperia 5',
      price: 450,
      attributes: { brand: 'Sony', model: 'Xperia 5', storage: '256GB', condition: 'New', color: 'Black' },
    });
    expect((await expectCountsOfTheList({ condition: 'New' })).data.brand.counts.Sony).toBe(1);
    await server.db.execute(`update listings set attributes = attributes || '{"brand":"Samsung","storage":"64GB"}' where id = '${created.id}'`);
    const edited = await expectCountsOfTheList({ brand: 'Samsung' });
    expect(edited.data.brand.options).not.toContain('Sony');
    await server.db.execute(`update listings set status = 'SOLD' where id = '${created.id}'`);
    expect((await expectCountsOfTheList({ brand: 'Samsung' })).data.storage.counts['64GB']).toBe(0);
    await server.db.execute(`delete from listings where title = 'Google Pixel 8' and "categoryId" = '${category.id}'`);
    const deleted = await expectCountsOfTheList({ color: 'White' });
    expect(deleted.data.brand.options).not.toContain('Google');
  });

  it('rejects a bad filter with a 400 envelope', async () => {
    const response = await api.get('/api/public/filter-options?category=Facet%20Phones&priceMin=-1');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, details: [{ field: 'priceMin' }] });
  });
});
