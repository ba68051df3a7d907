import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { listings, users, type ListingAttributes, type SchemaRule } from '../lib/db/schema.js';
import { buildCategory, buildListing, PHONE_RULES } from './support/catalog-factories.js';
import { buildAgent } from './support/factories.js';
import { useTestServer } from './support/test-server.js';

const API_BASE_URL = 'https://api.shop.example';
const HOST_IMAGE = 'https://res.cloudinary.com/demo/image/upload/v1/brostechnology/listings/a.webp';
const LOCAL_IMAGE = '/uploads/0b4a0d1e-5f7a-4c1e-9a51-2f1b8d0c9e11.webp';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';
/** A photo stored before photos were described, as answers show it until the backfill reaches it. */
const undescribedPhoto = (url: string) => ({ url, width: null, height: null, placeholder: null, srcset: url });

const server = useTestServer({ API_BASE_URL, TRUST_PROXY: '1' });
const api = server.api;

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

async function viewsAndClicks(id: string) {
  const [row] = await server.db
    .select({ viewsCount: listings.viewsCount, inquiryClicks: listings.inquiryClicks, updatedAt: listings.updatedAt })
    .from(listings)
    .where(eq(listings.id, id));
  return row!;
}

const ids = (body: { data: Array<{ id: string }> }) => body.data.map((item) => item.id);

describe('GET /api/public/listings', () => {
  const WATCH_RULES: SchemaRule[] = [
    { field: 'brand', type: 'string', required: true },
    { field: 'caseSize', type: 'select', required: true, options: ['41mm', '45mm'] },
  ];
  let phones: Awaited<ReturnType<typeof buildCategory>>;
  let watches: Awaited<ReturnType<typeof buildCategory>>;
  let iphone: Awaited<ReturnType<typeof buildListing>>;
  let galaxy: Awaited<ReturnType<typeof buildListing>>;
  let pixel: Awaited<ReturnType<typeof buildListing>>;
  let watch: Awaited<ReturnType<typeof buildListing>>;

  beforeAll(async () => {
    phones = await buildCategory(server.db, { name: 'STORE_PHONES', displayName: 'Store Phones', schemaRules: PHONE_RULES });
    watches = await buildCategory(server.db, { name: 'STORE_WATCHES', displayName: 'Store Watches', schemaRules: WATCH_RULES });
    iphone = await buildListing(server.db, {
      categoryId: phones.id,
      title: 'iPhone 15 Pro',
      description: 'Boxed, 100% battery',
      price: 1000,
      attributes: { brand: 'Apple', model: 'iPhone 15 Pro', storage: '256GB', batteryHealth: 100, hasWarranty: true },
      images: [LOCAL_IMAGE, HOST_IMAGE],
      stockQuantity: 3,
      createdAt: minutesAgo(1),
    });
    galaxy = await buildListing(server.db, {
      categoryId: phones.id,
      title: 'Galaxy S24',
      description: 'Like new',
      price: 800,
      attributes: { brand: 'Samsung', model: 'Galaxy S24', storage: '128GB', hasWarranty: false },
      createdAt: minutesAgo(2),
    });
    pixel = await buildListing(server.db, {
      categoryId: phones.id,
      title: 'Pixel 8',
      description: 'Used_good, a few scratches',
      price: 450.5,
      attributes: { brand: 'Google', model: 'Pixel 8', storage: '128GB' },
      createdAt: minutesAgo(3),
    });
    watch = await buildListing(server.db, {
      categoryId: watches.id,
      title: 'Apple Watch Series 9',
      description: 'Midnight aluminium',
      price: 399,
      attributes: { brand: 'apple', caseSize: '45mm' },
      createdAt: minutesAgo(4),
    });
    for (const status of ['SOLD', 'PENDING', 'ARCHIVED'] as const) {
      await buildListing(server.db, { categoryId: phones.id, title: `iPhone ${status}`, status, createdAt: minutesAgo(0) });
    }
  });

  describe('happy', () => {
    it('lists only AVAILABLE listings, newest first, in the public item shape', async () => {
      const response = await api.get('/api/public/listings');
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      expect(response.body).not.toHaveProperty('pagination');
      expect(ids(response.body)).toEqual([iphone.id, galaxy.id, pixel.id, watch.id]);
      expect(response.body.data[0]).toEqual({
        id: iphone.id,
        title: 'iPhone 15 Pro',
        price: 1000,
        inStock: true,
        stockQuantity: 3,
        brand: 'Apple',
        category: 'Store Phones',
        categoryId: phones.id,
        attributes: { brand: 'Apple', model: 'iPhone 15 Pro', storage: '256GB', batteryHealth: 100, hasWarranty: true },
        tags: ['brand: Apple', 'model: iPhone 15 Pro', 'storage: 256GB', 'batteryHealth: 100', 'hasWarranty: true'],
        hero: `${API_BASE_URL}${LOCAL_IMAGE}`,
        gallery: [`${API_BASE_URL}${LOCAL_IMAGE}`, HOST_IMAGE],
        // Stored before photos were described: no size or placeholder until the backfill runs.
        heroPhoto: undescribedPhoto(`${API_BASE_URL}${LOCAL_IMAGE}`),
        photos: [undescribedPhoto(`${API_BASE_URL}${LOCAL_IMAGE}`), undescribedPhoto(HOST_IMAGE)],
        description: 'Boxed, 100% battery',
        features: ['Brand: Apple', 'Model: iPhone 15 Pro', 'Storage: 256GB', 'Battery Health: 100', 'Has Warranty: Yes'],
      });
    });

    it('gives a listing without images a null hero and an empty gallery, and booleans as No', async () => {
      const response = await api.get('/api/public/listings?q=galaxy');
      expect(response.body.data).toHaveLength(1);
      expect(response.body.data[0]).toMatchObject({ hero: null, gallery: [], heroPhoto: null, photos: [], price: 800, features: expect.arrayContaining(['Has Warranty: No']) });
    });

    it('filters by category display name or code, case-insensitively', async () => {
      for (const category of ['Store Watches', 'store watches', 'STORE_WATCHES', 'store_watches']) {
        const response = await api.get(`/api/public/listings?category=${encodeURIComponent(category)}`);
        expect(response.status).toBe(200);
        expect(ids(response.body)).toEqual([watch.id]);
      }
    });

    it('answers an unknown category with an empty list', async () => {
      const response = await api.get('/api/public/listings?category=Boats');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, data: [] });
    });

    it('matches q as a case-insensitive substring of the title or the description', async () => {
      expect(ids((await api.get('/api/public/listings?q=IPHONE')).body)).toEqual([iphone.id]);
      expect(ids((await api.get('/api/public/listings?q=scratches')).body)).toEqual([pixel.id]);
      expect(ids((await api.get('/api/public/listings?q=watch')).body)).toEqual([watch.id]);
    });

    it('matches q as a word of the brand too, ranked with title words, newest first', async () => {
      expect(ids((await api.get('/api/public/listings?q=apple')).body)).toEqual([iphone.id, watch.id]);
    });

    it('treats % and _ in q as literal characters, and a word without letters only as a whole word of the title, brand or model', async () => {
      // The iPhone's description holds `100%`, but a word without letters is matched only whole, and no stored word holds punctuation.
      expect(ids((await api.get(`/api/public/listings?q=${encodeURIComponent('100%')}`)).body)).toEqual([]);
      expect(ids((await api.get(`/api/public/listings?q=${encodeURIComponent('%')}`)).body)).toEqual([]);
      expect(ids((await api.get('/api/public/listings?q=used_good')).body)).toEqual([pixel.id]);
      expect(ids((await api.get('/api/public/listings?q=e_8')).body)).toEqual([]);
    });

    it('bounds the price inclusively with priceMin and priceMax', async () => {
      expect(ids((await api.get('/api/public/listings?priceMin=450.5&priceMax=800')).body)).toEqual([galaxy.id, pixel.id]);
      expect(ids((await api.get('/api/public/listings?priceMin=801')).body)).toEqual([iphone.id]);
    });

    it('accepts the older names search, minPrice and maxPrice as aliases', async () => {
      expect(ids((await api.get('/api/public/listings?search=pixel')).body)).toEqual([pixel.id]);
      expect(ids((await api.get('/api/public/listings?minPrice=399&maxPrice=450.5')).body)).toEqual([pixel.id, watch.id]);
    });

    it('matches a named attribute filter on the whole value, case-insensitively', async () => {
      expect(ids((await api.get('/api/public/listings?brand=APPLE')).body)).toEqual([iphone.id, watch.id]);
      expect(ids((await api.get('/api/public/listings?brand=App')).body)).toEqual([]);
      expect(ids((await api.get('/api/public/listings?storage=128gb')).body)).toEqual([galaxy.id, pixel.id]);
      expect(ids((await api.get('/api/public/listings?caseSize=45MM')).body)).toEqual([watch.id]);
    });

    it('combines attribute filters with q, the price bounds and the category', async () => {
      expect(ids((await api.get('/api/public/listings?storage=128GB&q=like%20new')).body)).toEqual([galaxy.id]);
      expect(ids((await api.get('/api/public/listings?brand=apple&priceMax=500')).body)).toEqual([watch.id]);
      expect(ids((await api.get('/api/public/listings?brand=apple&q=watch&priceMin=100&category=store_phones')).body)).toEqual([]);
      expect(ids((await api.get('/api/public/listings?brand=apple&model=iphone%2015%20pro&priceMin=999&category=Store%20Phones')).body)).toEqual([iphone.id]);
    });

    it('ignores empty filter values', async () => {
      const response = await api.get('/api/public/listings?brand=&q=&category=');
      expect(ids(response.body)).toEqual([iphone.id, galaxy.id, pixel.id, watch.id]);
    });
  });

  describe('error', () => {
    it('rejects a price that is not a number with 400 and details', async () => {
      const response = await api.get('/api/public/listings?priceMin=cheap');
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        success: false,
        details: [{ field: 'priceMin', message: 'must be a number', received: 'cheap' }],
      });
    });

    it('rejects a negative price and a bad maxPrice alias', async () => {
      expect((await api.get('/api/public/listings?priceMax=-1')).body.details).toEqual([{ field: 'priceMax', message: 'must be at least 0', received: -1 }]);
      expect((await api.get('/api/public/listings?maxPrice=1e3')).status).toBe(400);
    });

    it('rejects a limit under 1 or not a whole number', async () => {
      for (const limit of ['0', '2.5', 'ten']) {
        const response = await api.get(`/api/public/listings?limit=${limit}`);
        expect(response.status).toBe(400);
        expect(response.body.details[0].field).toBe('limit');
      }
    });

    it('rejects a page that is not a positive whole number', async () => {
      const response = await api.get('/api/public/listings?page=0');
      expect(response.status).toBe(400);
      expect(response.body.details[0]).toMatchObject({ field: 'page', message: 'must be at least 1' });
    });

    it('rejects a filter given twice', async () => {
      const response = await api.get('/api/public/listings?brand=a&brand=b');
      expect(response.status).toBe(400);
      expect(response.body.details[0]).toMatchObject({ field: 'brand', message: 'must be a single value' });
    });
  });
});

describe('GET /api/public/listings paging', () => {
  let category: Awaited<ReturnType<typeof buildCategory>>;
  let newestFirst: string[];

  beforeAll(async () => {
    category = await buildCategory(server.db, { name: 'PAGED', displayName: 'Paged' });
    const base = Date.now() - 3_600_000;
    const rows = await server.db
      .insert(listings)
      .values(
        Array.from({ length: 53 }, (_, index) => ({
          title: `Paged item ${index}`,
          price: 10 + index,
          categoryId: category.id,
          stockQuantity: 1,
          createdAt: new Date(base + index * 1000),
        })),
      )
      .returning({ id: listings.id });
    newestFirst = rows.map((row) => row.id).reverse();
  });

  it('returns 50 items by default', async () => {
    const response = await api.get('/api/public/listings?category=paged');
    expect(ids(response.body)).toEqual(newestFirst.slice(0, 50));
  });

  it('honours limit up to 100, and takes a larger one (the original storefront asks 300) as 100', async () => {
    expect(ids((await api.get('/api/public/listings?category=paged&limit=3')).body)).toEqual(newestFirst.slice(0, 3));
    expect((await api.get('/api/public/listings?category=paged&limit=100')).body.data).toHaveLength(53);
    const capped = await api.get('/api/public/listings?category=paged&limit=300&page=1');
    expect(capped.status).toBe(200);
    expect(capped.body.data).toHaveLength(53);
    expect(capped.body.pagination.limit).toBe(100);
  });

  it('adds pagination when a page is asked for', async () => {
    const response = await api.get('/api/public/listings?category=paged&limit=20&page=3');
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual(newestFirst.slice(40, 53));
    expect(response.body.pagination).toEqual({ page: 3, limit: 20, total: 53, totalPages: 3, totalExact: true });
  });

  it('reports the total on a page past the end', async () => {
    const response = await api.get('/api/public/listings?category=paged&limit=20&page=9');
    expect(response.body.data).toEqual([]);
    expect(response.body.pagination).toEqual({ page: 9, limit: 20, total: 53, totalPages: 3, totalExact: true });
  });

  it('reports a zero total when nothing matches', async () => {
    const response = await api.get('/api/public/listings?category=paged&q=nothing-like-this&page=1');
    expect(response.body).toEqual({ success: true, data: [], pagination: { page: 1, limit: 50, total: 0, totalPages: 0, totalExact: true } });
  });
});

describe('GET /api/public/listings older filters: beds, baths, amenities', () => {
  let homes: Awaited<ReturnType<typeof buildCategory>>;
  let flat: Awaited<ReturnType<typeof buildListing>>;
  let house: Awaited<ReturnType<typeof buildListing>>;

  beforeAll(async () => {
    homes = await buildCategory(server.db, { name: 'HOMES', displayName: 'Homes', schemaRules: [] });
    flat = await buildListing(server.db, {
      categoryId: homes.id,
      title: 'City flat',
      attributes: { beds: 2, baths: 1, amenities: 'Wifi, Parking' } as never,
      createdAt: minutesAgo(10),
    });
    house = await buildListing(server.db, {
      categoryId: homes.id,
      title: 'Family house',
      attributes: { beds: 4, baths: 2, amenities: ['wifi', 'Pool', 'Parking'] } as never,
      createdAt: minutesAgo(11),
    });
  });

  it('matches beds and baths by value', async () => {
    expect(ids((await api.get('/api/public/listings?category=homes&beds=4')).body)).toEqual([house.id]);
    expect(ids((await api.get('/api/public/listings?category=homes&baths=1')).body)).toEqual([flat.id]);
  });

  it('requires every listed amenity, stored as an array or a comma-separated string', async () => {
    expect(ids((await api.get('/api/public/listings?category=homes&amenities=wifi,parking')).body)).toEqual([flat.id, house.id]);
    expect(ids((await api.get('/api/public/listings?category=homes&amenities=WIFI,%20pool')).body)).toEqual([house.id]);
    expect(ids((await api.get('/api/public/listings?category=homes&amenities=pool,sauna')).body)).toEqual([]);
  });

  it('shows array attributes as comma-separated text', async () => {
    const response = await api.get('/api/public/listings?category=homes&beds=4');
    expect(response.body.data[0].tags).toContain('amenities: wifi, Pool, Parking');
    expect(response.body.data[0].brand).toBeNull();
  });
});

describe('GET /api/public/listings/:id', () => {
  let category: Awaited<ReturnType<typeof buildCategory>>;
  let agent: Awaited<ReturnType<typeof buildAgent>>;

  beforeAll(async () => {
    category = await buildCategory(server.db, { name: 'DETAIL', displayName: 'Detail' });
    agent = await buildAgent(server.db, { name: 'Dana Agent', phone: '+15550123' });
    await server.db
      .update(users)
      .set({
        profileImage: '/uploads/1b4a0d1e-5f7a-4c1e-9a51-2f1b8d0c9e11.webp',
        social_1: 'https://facebook.example/dana',
        social_6: 'https://wa.example/15550123',
        website: 'https://dana.example',
        customSocials: [{ name: 'Blog', url: 'https://blog.example' }],
        passwordResetToken: 'secret-hash',
      })
      .where(eq(users.id, agent.id));
  });

  describe('happy', () => {
    it('returns the item with the agent and counts the view without touching updatedAt', async () => {
      const listing = await buildListing(server.db, { categoryId: category.id, agentId: agent.id, images: [HOST_IMAGE], stockQuantity: 2 });
      const before = await viewsAndClicks(listing.id);
      const response = await api.get(`/api/public/listings/${listing.id}`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        id: listing.id,
        title: 'iPhone 15 Pro',
        price: 999.99,
        inStock: true,
        stockQuantity: 2,
        brand: 'Apple',
        category: 'Detail',
        categoryId: category.id,
        attributes: { brand: 'Apple', model: 'iPhone 15 Pro', storage: '256GB' },
        tags: ['brand: Apple', 'model: iPhone 15 Pro', 'storage: 256GB'],
        hero: HOST_IMAGE,
        gallery: [HOST_IMAGE],
        heroPhoto: undescribedPhoto(HOST_IMAGE),
        photos: [undescribedPhoto(HOST_IMAGE)],
        description: 'Mint condition, boxed.',
        features: ['Brand: Apple', 'Model: iPhone 15 Pro', 'Storage: 256GB'],
        agent: {
          id: agent.id,
          name: 'Dana Agent',
          phone: '+15550123',
          profileImage: `${API_BASE_URL}/uploads/1b4a0d1e-5f7a-4c1e-9a51-2f1b8d0c9e11.webp`,
          social_1: 'https://facebook.example/dana',
          social_2: null,
          social_3: null,
          social_4: null,
          social_5: null,
          social_6: 'https://wa.example/15550123',
          social_7: null,
          social_8: null,
          website: 'https://dana.example',
          customSocials: [{ name: 'Blog', url: 'https://blog.example' }],
        },
      });
      expect(response.text).not.toContain(agent.email);
      expect(response.text).not.toContain('secret-hash');
      const after = await viewsAndClicks(listing.id);
      expect(after.viewsCount).toBe(before.viewsCount + 1);
      expect(after.updatedAt).toEqual(before.updatedAt);
    });

    it('counts every one of concurrent views', async () => {
      const listing = await buildListing(server.db, { categoryId: category.id });
      const responses = await Promise.all(Array.from({ length: 8 }, () => api.get(`/api/public/listings/${listing.id}`)));
      expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
      expect((await viewsAndClicks(listing.id)).viewsCount).toBe(8);
    });

    it('shows SOLD and PENDING listings as not in stock', async () => {
      for (const status of ['SOLD', 'PENDING'] as const) {
        const listing = await buildListing(server.db, { categoryId: category.id, status, stockQuantity: 4 });
        const response = await api.get(`/api/public/listings/${listing.id}`);
        expect(response.status).toBe(200);
        expect(response.body.data).toMatchObject({ inStock: false, stockQuantity: 4 });
      }
    });

    it('shows an AVAILABLE listing with no stock as not in stock', async () => {
      const listing = await buildListing(server.db, { categoryId: category.id, stockQuantity: 0 });
      const response = await api.get(`/api/public/listings/${listing.id}`);
      expect(response.body.data).toMatchObject({ inStock: false, stockQuantity: 0 });
    });

    it('gives a listing without an agent a null agent', async () => {
      const listing = await buildListing(server.db, { categoryId: category.id, agentId: null });
      const response = await api.get(`/api/public/listings/${listing.id}`);
      expect(response.status).toBe(200);
      expect(response.body.data.agent).toBeNull();
    });
  });

  describe('error', () => {
    it('answers 404 for an ARCHIVED listing and does not count the view', async () => {
      const listing = await buildListing(server.db, { categoryId: category.id, status: 'ARCHIVED' });
      const response = await api.get(`/api/public/listings/${listing.id}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: `Listing with id "${listing.id}" not found` });
      expect((await viewsAndClicks(listing.id)).viewsCount).toBe(0);
    });

    it('answers 404 for an unknown id', async () => {
      const response = await api.get(`/api/public/listings/${MISSING_ID}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: `Listing with id "${MISSING_ID}" not found` });
    });

    it('answers 400 for an id that is not a UUID', async () => {
      const response = await api.get('/api/public/listings/not-a-uuid');
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ field: 'id', message: 'must be a valid UUID', received: 'not-a-uuid' }]);
    });
  });
});

describe('POST /api/public/listings/:id/inquiry', () => {
  let category: Awaited<ReturnType<typeof buildCategory>>;

  beforeAll(async () => {
    category = await buildCategory(server.db, { name: 'INQUIRY', displayName: 'Inquiry' });
  });

  describe('happy', () => {
    it('counts an inquiry for each method and answers exactly { success: true }', async () => {
      const listing = await buildListing(server.db, { categoryId: category.id });
      const before = await viewsAndClicks(listing.id);
      for (const method of ['messenger', 'chat', 'call']) {
        const response = await api.post(`/api/public/listings/${listing.id}/inquiry`, { json: { method } });
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ success: true });
      }
      const after = await viewsAndClicks(listing.id);
      expect(after.inquiryClicks).toBe(3);
      expect(after.updatedAt).toEqual(before.updatedAt);
    });

    it("takes the original storefront's method names as aliases: telegram is messenger, whatsapp is chat", async () => {
      const listing = await buildListing(server.db, { categoryId: category.id });
      for (const method of ['telegram', 'whatsapp']) {
        const response = await api.post(`/api/public/listings/${listing.id}/inquiry`, { json: { method } });
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ success: true });
      }
      expect((await viewsAndClicks(listing.id)).inquiryClicks).toBe(2);
    });

    it('counts every one of concurrent inquiries', async () => {
      const listing = await buildListing(server.db, { categoryId: category.id, status: 'SOLD' });
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => api.post(`/api/public/listings/${listing.id}/inquiry`, { json: { method: 'chat' } })),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
      expect((await viewsAndClicks(listing.id)).inquiryClicks).toBe(10);
    });
  });

  describe('error', () => {
    it('rejects an unknown method with 400 and counts nothing', async () => {
      const listing = await buildListing(server.db, { categoryId: category.id });
      const response = await api.post(`/api/public/listings/${listing.id}/inquiry`, { json: { method: 'email' } });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        success: false,
        details: [{ field: 'method', message: 'must be one of messenger, chat, call', received: 'email' }],
      });
      expect((await viewsAndClicks(listing.id)).inquiryClicks).toBe(0);
    });

    it('rejects a missing method with 400', async () => {
      const listing = await buildListing(server.db, { categoryId: category.id });
      const response = await api.post(`/api/public/listings/${listing.id}/inquiry`, { json: {} });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ field: 'method', message: 'is required' }]);
    });

    it('rejects malformed JSON with 400', async () => {
      const listing = await buildListing(server.db, { categoryId: category.id });
      const response = await api.post(`/api/public/listings/${listing.id}/inquiry`, { raw: '{"method":', headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ success: false, code: 'MALFORMED_BODY', error: 'Malformed JSON body' });
    });

    it('answers 404 for an unknown or ARCHIVED listing', async () => {
      const archived = await buildListing(server.db, { categoryId: category.id, status: 'ARCHIVED' });
      for (const id of [MISSING_ID, archived.id]) {
        const response = await api.post(`/api/public/listings/${id}/inquiry`, { json: { method: 'call' } });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ success: false, code: 'NOT_FOUND', error: `Listing with id "${id}" not found` });
      }
      expect((await viewsAndClicks(archived.id)).inquiryClicks).toBe(0);
    });

    it('refuses the 31st inquiry within a minute from one address on one listing with 429', async () => {
      const listing = await buildListing(server.db, { categoryId: category.id });
      const other = await buildListing(server.db, { categoryId: category.id });
      const inquire = (id: string, address: string) =>
        api.post(`/api/public/listings/${id}/inquiry`, { json: { method: 'call' }, headers: { 'x-forwarded-for': address } });
      const allowed = await Promise.all(Array.from({ length: 30 }, () => inquire(listing.id, '203.0.113.7')));
      expect(allowed.map((response) => response.status)).toEqual(Array(30).fill(200));
      const refused = await inquire(listing.id, '203.0.113.7');
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ success: false, code: 'RATE_LIMITED', error: 'Too many requests, try again later' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect((await viewsAndClicks(listing.id)).inquiryClicks).toBe(30);
      expect((await inquire(listing.id, '203.0.113.8')).status).toBe(200);
      expect((await inquire(other.id, '203.0.113.7')).status).toBe(200);
      expect((await viewsAndClicks(listing.id)).inquiryClicks).toBe(31);
    });

    it('answers 405 for GET', async () => {
      const response = await api.get(`/api/public/listings/${MISSING_ID}/inquiry`);
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    });
  });
});

describe('GET /api/public/filter-options', () => {
  const RULES: SchemaRule[] = [
    { field: 'brand', type: 'string', required: true },
    { field: 'storage', type: 'select', required: true, options: ['64GB', '128GB', '256GB', '512GB', '1TB'] },
    { field: 'batteryHealth', type: 'number', required: false },
    { field: 'hasWarranty', type: 'boolean', required: false },
    { field: 'color', type: 'string', required: false },
  ];

  beforeAll(async () => {
    const category = await buildCategory(server.db, { name: 'OPTION_PHONES', displayName: 'Option Phones', schemaRules: RULES });
    const other = await buildCategory(server.db, { name: 'OPTION_OTHER', displayName: 'Option Other', schemaRules: RULES });
    const rows: ListingAttributes[] = [
      { brand: 'Samsung', storage: '1TB', batteryHealth: 100, hasWarranty: true },
      { brand: 'Apple', storage: '128GB', batteryHealth: 95, hasWarranty: false, color: '' },
      { brand: 'Apple', storage: '256GB', batteryHealth: 87 },
      { brand: 'Google', storage: '128GB', model: 'Pixel 8' },
    ];
    for (const attributes of rows) await buildListing(server.db, { categoryId: category.id, attributes });
    await buildListing(server.db, { categoryId: category.id, status: 'SOLD', attributes: { brand: 'Nokia', storage: '64GB', color: 'Blue' } });
    await buildListing(server.db, { categoryId: other.id, attributes: { brand: 'Sony', storage: '512GB' } });
  });

  const expected = {
    brand: { field: 'brand', type: 'string', required: true, options: ['Apple', 'Google', 'Samsung'], counts: { Apple: 2, Google: 1, Samsung: 1 } },
    storage: { field: 'storage', type: 'select', required: true, options: ['128GB', '256GB', '1TB'], counts: { '128GB': 2, '256GB': 1, '1TB': 1 } },
    batteryHealth: { field: 'batteryHealth', type: 'number', required: false, options: ['87', '95', '100'], counts: { '87': 1, '95': 1, '100': 1 } },
    hasWarranty: { field: 'hasWarranty', type: 'boolean', required: false, options: ['false', 'true'], counts: { false: 1, true: 1 } },
    color: { field: 'color', type: 'string', required: false, options: [], counts: {} },
  };

  it('lists, per rule, the values present among the AVAILABLE listings of the category, with their counts', async () => {
    const response = await api.get('/api/public/filter-options?category=Option%20Phones');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: expected, total: 4, priceRange: { min: 999.99, max: 999.99 }, countsExact: true });
  });

  it('finds the category by code, case-insensitively', async () => {
    const response = await api.get('/api/public/filter-options?category=option_phones');
    expect(response.body.data).toEqual(expected);
  });

  it('answers an unknown category with an empty object and nothing matched', async () => {
    const response = await api.get('/api/public/filter-options?category=Boats');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: {}, total: 0, priceRange: { min: null, max: null }, countsExact: true });
  });

  it('answers a missing category with an empty object, and the total and price range of every available listing', async () => {
    const response = await api.get('/api/public/filter-options');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({});
    const all = await api.get('/api/public/listings?limit=100&page=1');
    const prices = all.body.data.map((item: { price: number }) => item.price);
    expect(response.body.total).toBe(all.body.pagination.total);
    expect(response.body.priceRange).toEqual({ min: Math.min(...prices), max: Math.max(...prices) });
  });

  it('gives every rule empty options for a category without listings', async () => {
    await buildCategory(server.db, { name: 'OPTION_EMPTY', displayName: 'Option Empty', schemaRules: RULES });
    const response = await api.get('/api/public/filter-options?category=Option%20Empty');
    expect(response.body.data).toEqual(Object.fromEntries(RULES.map((rule) => [rule.field, { ...rule, options: [], counts: {} }])));
  });

  it('rejects a category given twice', async () => {
    const response = await api.get('/api/public/filter-options?category=a&category=b');
    expect(response.status).toBe(400);
    expect(response.body.details[0]).toMatchObject({ field: 'category', message: 'must be a single value' });
  });
});

describe('GET /api/public/filter-options: free-text values are bounded', () => {
  it('offers at most 100 values of a free-text field, the most common, and says there are more', async () => {
    const rules: SchemaRule[] = [
      { field: 'brand', type: 'string', required: true },
      { field: 'color', type: 'string', required: false },
    ];
    const category = await buildCategory(server.db, { name: 'CROWDED', displayName: 'Crowded', schemaRules: rules });
    const listings: ListingAttributes[] = [
      ...Array.from({ length: 3 }, () => ({ brand: 'Apple', color: 'Common Red' })),
      ...Array.from({ length: 2 }, () => ({ brand: 'Apple', color: 'Common Blue' })),
      ...Array.from({ length: 150 }, (_, index) => ({ brand: 'Apple', color: `Rare ${String(index).padStart(3, '0')}` })),
    ];
    await Promise.all(listings.map((attributes) => buildListing(server.db, { categoryId: category.id, attributes })));
    const response = await api.get('/api/public/filter-options?category=Crowded');
    expect(response.status).toBe(200);
    const { brand, color } = response.body.data;
    expect(brand).toEqual({ field: 'brand', type: 'string', required: true, options: ['Apple'], counts: { Apple: 155 } });
    expect(color.hasMoreOptions).toBe(true);
    expect(color.options).toHaveLength(100);
    expect(color.options).toEqual(expect.arrayContaining(['Common Red', 'Common Blue']));
    // Ties among the rare values are broken by the value, so the first 98 of them are kept.
    expect(color.options).toContain('Rare 097');
    expect(color.options).not.toContain('Rare 098');
    expect(color.counts['Common Red']).toBe(3);
    expect(response.text.length).toBeLessThan(6000);
  });
});
