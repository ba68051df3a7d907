import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '../lib/config.js';
import { EXACT_TOTAL_LIMIT } from '../lib/db/bounded-total.js';
import { connect, type Database } from '../lib/db/client.js';
import { COUNTED_LISTINGS, MERGED_POSTINGS, WALK_WINDOW } from '../lib/listings/read-tuning.js';
import { correctSearch } from '../lib/search/word-corrections.js';
import { findPublicListings } from '../lib/storefront/list-reads.js';
import { findPostedConditions } from '../lib/storefront/posted-search.js';
import { publicSearch, type PublicListingFilters } from '../lib/storefront/queries.js';
import { SERVED_RESULTS } from '../lib/storefront/read-plan.js';
import { withDerivedDataDeferred } from '../lib/listings/derived-data.js';
import { insertGeneratedListings } from '../lib/seeding/bulk-listings.js';
import { catalogueBrowseCeilings, CEILING_PERCENTILES } from '../lib/seeding/catalogue-prices.js';
import { shopperQueries } from '../lib/seeding/shopper-queries.js';
import { buildListing } from './support/catalog-factories.js';
import { testPostgresUrl } from './support/databases.js';
import { buildAgent } from './support/factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

/**
 * Every list answered by the service is compared with the straightforward statement over the same
 * rows (filters written the obvious way, every match sorted newest first): the same ids in the same
 * order, and the same total (exact below 10,000, from there 10,000 flagged). The store is the seeder's realistic
 * catalogue, with more available listings than a page search walks (WALK_WINDOW), so every way a
 * page is read is taken, and a few in the trash, which no list or count may show.
 */
const LISTINGS = 20_000;
const TRASHED = 200;

const server = useTestServer();
const api = server.api;
const shop = useShop(server);
let phonesId: string;
let laptopsId: string;

async function rows<T>(query: SQL): Promise<T[]> {
  return ((await server.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Runs a bulk load as `npm run seed` does: on PostgreSQL through a maintenance connection, whose
 * statements (the index rebuilds) are not bounded as requests' are; on the embedded database
 * through the server's own, the one this process may open.
 */
async function asMaintenance(load: (db: Database) => Promise<void>): Promise<void> {
  if (!testPostgresUrl) return load(server.db);
  const maintenance = await connect(config(), undefined, 'maintenance');
  try {
    await load(maintenance.db);
  } finally {
    await maintenance.close();
  }
}

beforeAll(async () => {
  const third = await buildAgent(server.db);
  await asMaintenance((db) =>
    withDerivedDataDeferred(db, () => insertGeneratedListings(db, { total: LISTINGS, seed: 7, agentIds: [shop.agent.id, shop.otherAgent.id, third.id] })),
  );
  await server.db.execute(sql`update listings set "deletedAt" = now() - interval '1 day' where id in (select id from listings order by md5(id::text) limit ${TRASHED})`);
  await server.db.execute(sql`analyze listings`);
  const [phones, laptops] = await rows<{ id: string }>(sql`select id from categories where name in ('PHONES', 'LAPTOPS') order by name desc`);
  phonesId = phones!.id;
  laptopsId = laptops!.id;
  // The realistic catalogue's descriptions (10 to 80 words) make the text index take minutes to build on a busy machine.
}, 600_000);

/** The ids of every listing out of the trash matching `where`, newest first, as the obvious statement finds them. */
async function straightforward(where: SQL): Promise<string[]> {
  const found = await rows<{ id: string }>(sql`select l.id from listings l join categories c on c.id = l."categoryId"
    where ${where} and l."deletedAt" is null order by l."createdAt" desc, l.id desc`);
  return found.map((row) => row.id);
}

const available = sql`l.status = 'AVAILABLE' and l."deletedAt" is null`;
const contains = (text: string) => sql`(l.title ilike ${`%${text}%`} or l.description ilike ${`%${text}%`})`;
const attribute = (name: string, value: string) => sql`lower(l.attributes ->> ${name}) = lower(${value})`;
/** `word` (letters and digits) is a whole word of the title, brand or model. */
const wholeWord = (word: string) =>
  sql`lower(concat_ws(' ', l.title, l.attributes ->> 'brand', l.attributes ->> 'model')) ~ ${`(^|[^[:alnum:]])${word}([^[:alnum:]]|$)`}`;

interface Answer {
  status: number;
  body: { data: Array<{ id: string }>; pagination?: { page: number; limit: number; total: number; totalPages: number; totalExact: boolean } };
}

/**
 * The answer holds the expected page of `all`, and a total exact below EXACT_TOTAL_LIMIT, from
 * there that limit flagged as not exact. A list serving only its first `served` results has no page past them.
 */
function expectPage(answer: Answer, all: string[], page: number | undefined, limit: number, served = Number.POSITIVE_INFINITY): void {
  expect(answer.status).toBe(200);
  const offset = ((page ?? 1) - 1) * limit;
  expect(answer.body.data.map((item) => item.id)).toEqual(all.slice(0, served).slice(offset, offset + limit));
  if (page === undefined) {
    expect(answer.body.pagination).toBeUndefined();
    return;
  }
  const { total, totalExact, totalPages } = answer.body.pagination!;
  expect(totalPages).toBe(Math.ceil(Math.min(total, served) / limit));
  const capped = { total: Math.min(all.length, EXACT_TOTAL_LIMIT), totalExact: all.length < EXACT_TOTAL_LIMIT };
  // A storefront list caps every total; other lists give a kept count (no row filter) as it is.
  const keptAsItIs = served === Number.POSITIVE_INFINITY && totalExact && all.length >= EXACT_TOTAL_LIMIT;
  expect({ total, totalExact }).toEqual(keptAsItIs ? { total: all.length, totalExact: true } : capped);
}

describe('the store used by these tests', () => {
  it('holds more available listings than a page search walks', async () => {
    const [available] = await rows<{ count: number }>(sql`select count(*)::int as count from listings where status = 'AVAILABLE'`);
    expect(available!.count).toBeGreaterThan(WALK_WINDOW);
  });

  it("gives as browse ceilings the 10th to 90th percentiles of the available listings' prices, overall and per category", async () => {
    const prices = await rows<{ category: string; price: number }>(sql`select c."displayName" as category, l.price::float as price
      from listings l join categories c on c.id = l."categoryId" where l.status = 'AVAILABLE' and l."deletedAt" is null`);
    /** The percentile as percentile_cont interpolates it, in cents. */
    const percentiles = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return CEILING_PERCENTILES.map((share) => {
        const at = share * (sorted.length - 1);
        const below = sorted[Math.floor(at)]!;
        return Math.round((below + (sorted[Math.ceil(at)]! - below) * (at - Math.floor(at))) * 100) / 100;
      });
    };
    const categories = [...new Set(prices.map((row) => row.category))];
    expect(await catalogueBrowseCeilings(server.db)).toEqual({
      overall: percentiles(prices.map((row) => row.price)),
      byCategory: Object.fromEntries(categories.map((category) => [category, percentiles(prices.filter((row) => row.category === category).map((row) => row.price))])),
    });
  });

  it("holds each shopper's description-only word in some descriptions and in no title or attribute", async () => {
    for (const { q } of shopperQueries(LISTINGS).filter((query) => query.kind === 'description-only-word')) {
      const [held] = await rows<{ descriptions: number; elsewhere: number }>(sql`select
        count(*) filter (where l.description ~* ${`\\m${q}\\M`})::int as descriptions,
        count(*) filter (where l.title ~* ${`\\m${q}\\M`} or l.attributes::text ~* ${`\\m${q}\\M`})::int as elsewhere
        from listings l`);
      expect({ q, ...held }).toMatchObject({ q, descriptions: expect.any(Number), elsewhere: 0 });
      expect({ q, held: held!.descriptions > 0 }).toEqual({ q, held: true });
    }
  });

  it('holds listings in the trash, available ones among them', async () => {
    const [trashed] = await rows<{ count: number; available: number }>(sql`select count(*)::int as count,
      (count(*) filter (where status = 'AVAILABLE'))::int as available from listings where "deletedAt" is not null`);
    expect(trashed!.count).toBe(TRASHED);
    expect(trashed!.available).toBeGreaterThan(TRASHED / 2);
  });
});

describe('GET /api/public/listings at scale matches the straightforward statement', () => {
  // Searches are asked newest first: relevance ranks matches in a title above newer ones in a
  // description or a misspelt title, which the newest-first statement does not. Relevance is
  // compared below, for words that only titles, brands and models hold.
  const cases: Array<[query: string, where: () => SQL]> = [
    ['', () => available],
    ['category=Phones', () => sql`${available} and lower(c."displayName") = 'phones'`],
    ['category=laptops', () => sql`${available} and lower(c.name) = 'laptops'`],
    ['q=zenbook&sort=newest', () => sql`${available} and ${contains('zenbook')}`],
    ['q=Surface&brand=Dell&sort=newest', () => sql`${available} and ${contains('surface')} and ${attribute('brand', 'Dell')}`],
    ['q=pro&brand=dell&sort=newest', () => sql`${available} and ${contains('pro')} and ${attribute('brand', 'dell')}`],
    ['q=ipad&category=Phones&sort=newest', () => sql`${available} and ${contains('ipad')} and lower(c."displayName") = 'phones'`],
    ['brand=apple', () => sql`${available} and ${attribute('brand', 'apple')}`],
    ['brand=Garmin&q=fenix&sort=newest', () => sql`${available} and ${attribute('brand', 'Garmin')} and ${contains('fenix')}`],
    ['priceMax=2000', () => sql`${available} and l.price <= 2000`],
    ['priceMin=10000&priceMax=10500', () => sql`${available} and l.price >= 10000 and l.price <= 10500`],
    ['q=a54&storage=256GB&priceMax=30000&sort=newest', () => sql`${available} and ${contains('a54')} and ${attribute('storage', '256GB')} and l.price <= 30000`],
    ['category=Phones&brand=samsung&condition=Brand%20New', () =>
      sql`${available} and lower(c."displayName") = 'phones' and ${attribute('brand', 'samsung')} and ${attribute('condition', 'Brand New')}`],
    // Words shorter than three characters or without letters match whole words only.
    ['q=hp&sort=newest', () => sql`${available} and ${wholeWord('hp')}`],
    ['q=13', () => sql`${available} and ${wholeWord('13')}`],
    ['q=13&brand=dell', () => sql`${available} and ${wholeWord('13')} and ${attribute('brand', 'dell')}`],
    ['q=xps%2013', () => sql`${available} and ${contains('xps')} and ${wholeWord('13')}`],
    ['q=%25', () => sql`false`],
  ];

  for (const [query, where] of cases) {
    it(`answers ${query || 'no filter'} alike, without and with pages`, async () => {
      const all = await straightforward(where());
      const join = query ? `${query}&` : '';
      expectPage(await api.get(`/api/public/listings?${join}limit=50`), all, undefined, 50, SERVED_RESULTS);
      for (const page of [1, 3, Math.max(1, Math.ceil(all.length / 50))]) {
        expectPage(await api.get(`/api/public/listings?${join}limit=50&page=${page}`), all, page, 50, SERVED_RESULTS);
      }
      expectPage(await api.get(`/api/public/listings?${join}limit=50&page=500`), all, 500, 50, SERVED_RESULTS);
    });
  }
});

describe('GET /api/public/listings at scale in price order matches the straightforward statement', () => {
  /** The ids of every listing matching `where` by price, newest first among equal prices. */
  async function byPrice(where: SQL, direction: 'asc' | 'desc'): Promise<string[]> {
    const found = await rows<{ id: string }>(sql`select l.id from listings l join categories c on c.id = l."categoryId"
      where ${where} and l."deletedAt" is null order by l.price ${sql.raw(direction)}, l."createdAt" desc, l.id desc`);
    return found.map((row) => row.id);
  }

  // Matches common at every price (the walk in price order finds them), clustered away from the
  // end the order starts at (found through their filters' indexes), and none.
  const cases: Array<[query: string, where: () => SQL]> = [
    ['', () => available],
    ['category=laptops', () => sql`${available} and lower(c.name) = 'laptops'`],
    ['brand=apple', () => sql`${available} and ${attribute('brand', 'apple')}`],
    ['q=galaxy', () => sql`${available} and ${contains('galaxy')}`],
    ['q=Surface&brand=Dell', () => sql`${available} and ${contains('surface')} and ${attribute('brand', 'Dell')}`],
  ];

  for (const [query, where] of cases) {
    for (const direction of ['asc', 'desc'] as const) {
      it(`answers ${query || 'no filter'} by price ${direction} alike`, async () => {
        const all = await byPrice(where(), direction);
        const join = `${query ? `${query}&` : ''}sort=price_${direction}&limit=50`;
        expectPage(await api.get(`/api/public/listings?${join}`), all, undefined, 50, SERVED_RESULTS);
        for (const page of [1, 3, Math.max(1, Math.ceil(all.length / 50))]) {
          expectPage(await api.get(`/api/public/listings?${join}&page=${page}`), all, page, 50, SERVED_RESULTS);
        }
      });
    }
  }
});

describe('GET /api/public/listings at scale in price order from the search postings matches the straightforward statement', () => {
  /** The ids of every listing matching `where` by price, newest first among equal prices. */
  async function byPrice(where: SQL, direction: 'asc' | 'desc'): Promise<string[]> {
    const found = await rows<{ id: string }>(sql`select l.id from listings l join categories c on c.id = l."categoryId"
      where ${where} and l."deletedAt" is null order by l.price ${sql.raw(direction)}, l."createdAt" desc, l.id desc`);
    return found.map((row) => row.id);
  }
  const knownWord = (word: string) => sql`l."searchWords" && array[${word}]::text[]`;

  beforeAll(async () => {
    // Listings holding a word only where its postings do not: in a description (dear ones, which a
    // dearest-first page shows first), in a title word too long to be a search word, and in one
    // that is sold, which no page shows.
    const longWord = `bundle${'x'.repeat(30)}airpods${'y'.repeat(20)}`;
    for (const [title, description, price, status] of [
      ['Pixel 9 boxed', 'Comes with AirPods Pro', 490_000, 'AVAILABLE'],
      ['Galaxy S24 boxed', 'Bundle: two airpods cases', 490_000, 'AVAILABLE'],
      ['Watch SE', 'Pairs with airpods', 35, 'AVAILABLE'],
      [`Cable ${longWord}`, 'Spare', 450_000, 'AVAILABLE'],
      ['Pixel 8 sold', 'Comes with AirPods', 495_000, 'SOLD'],
    ] as const) {
      await buildListing(server.db, { categoryId: phonesId, agentId: shop.agent.id, title, description, price, status, attributes: { brand: 'Google', model: 'Pixel' } });
    }
    // One attribute term twice (names differing only in case), and a term too long for an index entry.
    const longColor = `Midnight ${'blue '.repeat(600)}`.trim();
    await buildListing(server.db, { categoryId: phonesId, agentId: shop.agent.id, title: 'Galaxy S24 Ultra', price: 98_000, attributes: { Brand: 'Samsung', brand: 'samsung', model: 'Galaxy S24 Ultra', color: longColor } });
  });

  // A word held by fewer listings than a page walks (all its postings read), by more (`apple`),
  // with a filter it never meets (every posting rejected), misspelt, with punctuation, two words.
  const cases: Array<[query: string, where: () => SQL]> = [
    ['q=airpods', () => sql`${available} and (${contains('airpods')} or ${knownWord('airpods')})`],
    ['q=apple', () => sql`${available} and (${contains('apple')} or ${knownWord('apple')})`],
    ['q=apple&brand=Dell', () => sql`${available} and ${contains('apple')} and ${attribute('brand', 'Dell')}`],
    ['q=airpdos', () => sql`${available} and (${contains('airpdos')} or ${knownWord('airpods')})`],
    ['q=wf-c700n', () => sql`${available} and ${contains('wf-c700n')}`],
    ['q=apple%20airpods', () => sql`${available} and (${contains('apple')} or ${knownWord('apple')}) and (${contains('airpods')} or ${knownWord('airpods')})`],
    // Attribute filters, alone and with a word: their terms are posted too.
    ['brand=garmin', () => sql`${available} and ${attribute('brand', 'garmin')}`],
    ['storage=1TB', () => sql`${available} and ${attribute('storage', '1TB')}`],
    ['q=apple&storage=1TB', () => sql`${available} and (${contains('apple')} or ${knownWord('apple')}) and ${attribute('storage', '1TB')}`],
    ['brand=samsung', () => sql`${available} and l."attributeTerms" @> array['brand=samsung']`],
    // Words matched whole only: their postings are read as they are.
    ['q=hp', () => sql`${available} and ${wholeWord('hp')}`],
    ['q=13&brand=apple', () => sql`${available} and ${wholeWord('13')} and ${attribute('brand', 'apple')}`],
    ['q=%23', () => sql`false`],
    // A word and a filter value no listing holds.
    ['q=qqqzzz', () => sql`false`],
    ['brand=nosuchbrand&q=apple', () => sql`false`],
  ];

  for (const [query, where] of cases) {
    for (const direction of ['asc', 'desc'] as const) {
      it(`answers ${query} by price ${direction} alike`, async () => {
        const all = await byPrice(where(), direction);
        const join = `${query}&sort=price_${direction}&limit=50`;
        expectPage(await api.get(`/api/public/listings?${join}`), all, undefined, 50, SERVED_RESULTS);
        for (const page of [1, 3, Math.max(1, Math.ceil(all.length / 50))]) {
          expectPage(await api.get(`/api/public/listings?${join}&page=${page}`), all, page, 50, SERVED_RESULTS);
        }
      });
    }
  }

  it('shows first, dearest first, the listings holding the word only in a description or a long title word', async () => {
    const answer = await api.get('/api/public/listings?q=airpods&sort=price_desc&limit=3');
    expect(answer.body.data.map((item: { title: string }) => item.title)).toEqual(['Galaxy S24 boxed', 'Pixel 9 boxed', expect.stringMatching(/^Cable bundlex+airpods/)]);
  });
});

describe('GET /api/public/listings at scale newest first from the search postings matches the straightforward statement', () => {
  const knownWord = (word: string) => sql`l."searchWords" && array[${word}]::text[]`;
  const planOf = (answer: { headers: Headers }) => /plan;desc="([a-z-]+)"/.exec(answer.headers.get('server-timing') ?? '')?.[1];

  beforeAll(async () => {
    // `tripod` is held only in a description, and `monopod` only by a title word too long to be a
    // search word: neither is read from the postings, whose words do not hold them. `gimbal` is a
    // title word of some listings and a description word of another, which then holds it only there.
    const longWord = `kit${'x'.repeat(30)}monopod${'y'.repeat(20)}`;
    for (const [title, description] of [
      ['Pixel 9 with stand', 'Comes with a tripod'],
      [`Cable ${longWord}`, 'Spare'],
      ['Gimbal Pro 3', 'Steady'],
      ['Gimbal Mini', 'Small'],
      ['Pixel 8 boxed', 'Fits any gimbal'],
    ] as const) {
      await buildListing(server.db, { categoryId: phonesId, agentId: shop.agent.id, title, description, price: 300, attributes: { brand: 'Google', model: 'Pixel' } });
    }
  });

  // Words whose matches are exactly their known words' postings, alone, with a typo, with each
  // other, with attribute filters and price ranges, and matching nothing together; then words held
  // elsewhere too, which are walked as before.
  const cases: Array<[query: string, where: () => SQL, plan: string]> = [
    ['q=elitebook&sort=newest', () => sql`${available} and (${contains('elitebook')} or ${knownWord('lifebook')})`, 'newest-postings'],
    ['q=zenbook&sort=newest', () => sql`${available} and ${contains('zenbook')}`, 'newest-postings'],
    ['q=surfcae&sort=newest', () => sql`${available} and (${contains('surfcae')} or ${knownWord('surface')})`, 'newest-postings'],
    ['brand=apple&sort=newest', () => sql`${available} and ${attribute('brand', 'apple')}`, 'newest-postings'],
    ['q=13&sort=newest', () => sql`${available} and ${wholeWord('13')}`, 'newest-postings'],
    ['q=xps%2013&sort=newest', () => sql`${available} and ${contains('xps')} and ${wholeWord('13')}`, 'newest-postings'],
    ['q=inspiron&storage=1TB&sort=newest', () => sql`${available} and (${contains('inspiron')} or ${knownWord('inspiron')}) and ${attribute('storage', '1TB')}`, 'newest-postings'],
    ['q=galaxy&priceMin=20000&priceMax=80000&sort=newest', () => sql`${available} and ${contains('galaxy')} and l.price >= 20000 and l.price <= 80000`, 'newest-postings'],
    ['q=ipad&brand=dell&sort=newest', () => sql`${available} and ${contains('ipad')} and ${attribute('brand', 'dell')}`, 'newest-postings'],
    ['category=Phones&q=galaxy&sort=newest', () => sql`${available} and lower(c."displayName") = 'phones' and ${contains('galaxy')}`, 'newest-postings'],
    ['category=laptops&brand=apple&priceMax=150000&sort=newest', () => sql`${available} and lower(c.name) = 'laptops' and ${attribute('brand', 'apple')} and l.price <= 150000`, 'newest-postings'],
    ['category=Phones&q=ipad&sort=newest', () => sql`${available} and lower(c."displayName") = 'phones' and ${contains('ipad')}`, 'newest-postings'],
    ['q=xps', () => sql`${available} and ${contains('xps')}`, 'relevant-postings'],
    ['q=surfcae', () => sql`${available} and (${contains('surfcae')} or ${knownWord('surface')})`, 'relevant-postings'],
    ['q=tripod&sort=newest', () => sql`${available} and ${contains('tripod')}`, 'newest-walk'],
    ['q=monopod&sort=newest', () => sql`${available} and ${contains('monopod')}`, 'newest-walk'],
    ['q=gimbal&sort=newest', () => sql`${available} and (${contains('gimbal')} or ${knownWord('gimbal')})`, 'newest-walk'],
    ['q=gimbal', () => sql`${available} and (${contains('gimbal')} or ${knownWord('gimbal')})`, 'relevant-first'],
  ];

  for (const [query, where, plan] of cases) {
    it(`answers ${query} alike, near, deep and past its pages, read by ${plan}`, async () => {
      const all = await straightforward(where());
      const last = Math.max(1, Math.ceil(all.length / 50));
      for (const page of [1, 3, Math.min(40, last), last, last + 1]) {
        const answer = await api.get(`/api/public/listings?${query}&limit=50&page=${page}`);
        // Relevance ranks the newest matches first; every page past them is newest first.
        if (plan.startsWith('relevant') && page <= 4) expect(new Set(answer.body.data.map((item: { id: string }) => item.id))).toEqual(new Set(all.slice((page - 1) * 50, page * 50)));
        else expectPage(answer, all, page, 50, SERVED_RESULTS);
        expect(planOf(answer)).toBe(plan);
      }
    });
  }

  it('counts a search read from the postings exactly', async () => {
    const all = await straightforward(sql`${available} and ${contains('xps')} and ${wholeWord('13')}`);
    const answer = await api.get('/api/public/listings?q=xps%2013&sort=newest&limit=50&page=2');
    expect(answer.body.pagination).toMatchObject({ total: all.length, totalExact: true });
  });

  // A store this small never holds more postings than are merged at once; these reads are asked
  // as the planner plans them for a search that does, whose deep pages alone come from the postings.
  describe('for a search holding more postings than are merged at once', () => {
    async function readAsMany(text: string, order: 'newest' | 'relevance', attributes: Array<[string, string]>, page: number) {
      const filters: PublicListingFilters = { search: await correctSearch(server.db, text), attributes, amenities: [] };
      const posted = await findPostedConditions(server.db, filters);
      expect(posted).toBeDefined();
      return findPublicListings(server.db, { filters, order, limit: 50, page, posted: { ...posted!, postings: MERGED_POSTINGS + 1 } });
    }

    it('reads deep pages of intersected conditions from the postings with the total a walk gives, near pages by walking', async () => {
      const brand: Array<[string, string]> = [['brand', 'samsung']];
      const all = await straightforward(sql`${available} and ${contains('galaxy')} and ${attribute('brand', 'samsung')}`);
      const last = Math.ceil(all.length / 50);
      expect(last).toBeGreaterThan(15);
      for (const page of [15, last]) {
        const read = await readAsMany('galaxy', 'newest', brand, page);
        expect(read.plan).toBe('newest-postings');
        expect(read.rows.map((row) => row.id)).toEqual(all.slice((page - 1) * 50, page * 50));
        expect(read.total).toEqual((await readAsMany('galaxy', 'newest', brand, 1)).total);
      }
      expect((await readAsMany('galaxy', 'newest', brand, 1)).plan).toBe('newest-walk');
    });

    it('reads every page of one condition from its postings, and counts them there', async () => {
      const all = await straightforward(sql`${available} and ${contains('galaxy')}`);
      for (const page of [1, Math.ceil(all.length / 50)]) {
        const read = await readAsMany('galaxy', 'newest', [], page);
        expect(read.plan).toBe('newest-postings');
        expect(read.rows.map((row) => row.id)).toEqual(all.slice((page - 1) * 50, page * 50));
        expect(read.total).toEqual({ total: Math.min(all.length, EXACT_TOTAL_LIMIT), exact: all.length < EXACT_TOTAL_LIMIT });
      }
    });

    it('answers a deep page past few matches empty, with their exact count', async () => {
      const all = await straightforward(sql`${available} and ${contains('zenbook')} and ${attribute('brand', 'dell')}`);
      for (const order of ['newest', 'relevance'] as const) {
        const read = await readAsMany('zenbook', order, [['brand', 'dell']], 20);
        expect(read.plan).toBe(order === 'newest' ? 'newest-postings' : 'relevant-postings');
        expect(read).toMatchObject({ rows: [], total: { total: all.length, exact: true } });
      }
    });
  });
});

describe('GET /api/public/listings at scale within a price range matches the straightforward statement', () => {
  // Ranges cutting price bands or holding them whole, over every band or a few, of a category or
  // every one; deep pages read each band by its share of the page before reading it in full.
  const cases: Array<[query: string, where: () => SQL]> = [
    ['priceMax=2500', () => sql`${available} and l.price <= 2500`],
    ['priceMax=9999.99', () => sql`${available} and l.price <= 9999.99`],
    ['priceMin=0', () => sql`${available} and l.price >= 0`],
    ['priceMin=100000', () => sql`${available} and l.price >= 100000`],
    ['category=Phones&priceMin=12500&priceMax=100000', () => sql`${available} and lower(c."displayName") = 'phones' and l.price >= 12500 and l.price <= 100000`],
    ['category=laptops&priceMax=20000', () => sql`${available} and lower(c.name) = 'laptops' and l.price <= 20000`],
    ['priceMin=9000&priceMax=1000', () => sql`false`],
  ];

  for (const [query, where] of cases) {
    it(`answers ${query} alike, near, deep and past its pages`, async () => {
      const all = await straightforward(where());
      for (const page of [1, 3, 40, 150, Math.max(1, Math.ceil(all.length / 50)), 500]) {
        expectPage(await api.get(`/api/public/listings?${query}&limit=50&page=${page}`), all, page, 50, SERVED_RESULTS);
      }
    });
  }
});

describe('GET /api/public/listings at scale with amenities', () => {
  let homesId: string;

  beforeAll(async () => {
    const [homes] = await rows<{ id: string }>(sql`insert into categories (name, "displayName", "schemaRules")
      values ('SCALE_HOMES', 'Scale Homes', '[]') returning id`);
    homesId = homes!.id;
    const amenities: unknown[] = [['Wifi', 'Pool'], 'wifi, parking', ['POOL'], 'Sauna'];
    for (const [index, named] of amenities.entries()) {
      await buildListing(server.db, { categoryId: homesId, title: `Flat ${index}`, attributes: { amenities: named } as never });
    }
    await server.db.execute(sql`analyze listings`);
  });

  // The older shape of amenities (an array) is for the storefront's filter alone; the lists that follow compare the generated store.
  afterAll(async () => {
    await server.db.execute(sql`delete from listings where "categoryId" = ${homesId}`);
    await server.db.execute(sql`delete from categories where id = ${homesId}`);
  });

  const holds = (...amenities: string[]) =>
    sql`${available} and l.attributes ? 'amenities' and listing_amenities(l.attributes) @> ${sql.param(amenities)}::text[]`;

  for (const [query, amenities] of [['amenities=wifi', ['wifi']], ['amenities=WIFI,%20pool', ['wifi', 'pool']], ['amenities=jacuzzi', ['jacuzzi']]] as const) {
    it(`answers ${query} as the straightforward statement does`, async () => {
      const all = await straightforward(holds(...amenities));
      expectPage(await api.get(`/api/public/listings?${query}&limit=50&page=1`), all, 1, 50, SERVED_RESULTS);
    });
  }

  it('finds listings naming an amenity through an index, not by reading every available listing', async () => {
    const filters: PublicListingFilters = { attributes: [], amenities: ['jacuzzi'] };
    const { indexed, checked } = publicSearch(server.db, filters);
    const plan = await rows<{ 'QUERY PLAN': string }>(sql`explain select id from listings where ${indexed} and ${checked}`);
    expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toContain('listings_available_amenities_idx');
  });
});

describe('GET /api/public/listings at scale serves the first 10,000 results', () => {
  it('stops its pages at the 10,000th result, serves a page reaching it in part, and answers empty past it', async () => {
    const all = await straightforward(available);
    expect(all.length).toBeGreaterThan(SERVED_RESULTS);
    for (const [limit, page] of [[100, 100], [30, 334], [100, 101], [50, 1_000_000]] as const) {
      const answer = await api.get(`/api/public/listings?limit=${limit}&page=${page}`);
      expectPage(answer, all, page, limit, SERVED_RESULTS);
      expect(answer.body.pagination).toEqual({ page, limit, total: EXACT_TOTAL_LIMIT, totalPages: Math.ceil(SERVED_RESULTS / limit), totalExact: false });
    }
    expect((await api.get('/api/public/listings?limit=30&page=334')).body.data).toHaveLength(10);
  });

  it("leaves the administrators' list uncapped", async () => {
    const all = await straightforward(sql`true`);
    const answer = await api.get('/api/listings?limit=100&page=101', { token: shop.admin.token });
    expectPage(answer, all, 101, 100);
    expect(answer.body.data).toHaveLength(100);
    expect(answer.body.pagination.totalPages).toBe(Math.ceil(all.length / 100));
  });
});

describe('GET /api/listings at scale matches the straightforward statement', () => {
  const everything = sql`true`;
  const cases: Array<[query: string, where: () => SQL]> = [
    ['', () => everything],
    ['status=SOLD', () => sql`l.status = 'SOLD'`],
    ['categoryId=<laptops>', () => sql`l."categoryId" = ${laptopsId}`],
    ['status=AVAILABLE&categoryId=<phones>', () => sql`l.status = 'AVAILABLE' and l."categoryId" = ${phonesId}`],
    ['search=surface', () => contains('surface')],
    ['search=xps&status=PENDING', () => sql`${contains('xps')} and l.status = 'PENDING'`],
    ['minPrice=10000&maxPrice=20000', () => sql`l.price >= 10000 and l.price <= 20000`],
    ['city=Adama&neighborhood=franko', () => sql`lower(l.city) = 'adama' and lower(l.neighborhood) = 'franko'`],
  ];
  const withIds = (query: string) => query.replace('<laptops>', laptopsId).replace('<phones>', phonesId);

  for (const [query, where] of cases) {
    it(`answers ${query || 'no filter'} alike for an administrator`, async () => {
      const all = await straightforward(where());
      for (const page of [1, 2, Math.max(1, Math.ceil(all.length / 20))]) {
        expectPage(await api.get(`/api/listings?${withIds(query)}&page=${page}`, { token: shop.admin.token }), all, page, 20);
      }
    });

    it(`answers ${query || 'no filter'} alike for an agent, over their own listings`, async () => {
      const all = await straightforward(sql`${where()} and l."agentId" = ${shop.agent.id}`);
      for (const page of [1, Math.max(1, Math.ceil(all.length / 20))]) {
        expectPage(await api.get(`/api/listings?${withIds(query)}&page=${page}`, { token: shop.agent.token }), all, page, 20);
      }
    });
  }
});

describe('counts read from kept totals at scale', () => {
  it('gives commission listings and their exact totals', async () => {
    for (const [query, where] of [
      ['commissionFilter=set', sql`l."commissionPercent" is not null`],
      ['commissionFilter=unset&status=SOLD', sql`l."commissionPercent" is null and l.status = 'SOLD'`],
      ['', sql`true`],
    ] as const) {
      const all = await straightforward(where);
      const answer = await api.get(`/api/commissions/listings?${query}&page=7`, { token: shop.admin.token });
      expectPage(answer, all, 7, 20);
      expect(answer.body.pagination.totalExact).toBe(true);
    }
  });

  it('sums the commission summary as the listings do', async () => {
    const [expected] = await rows(sql`select count(*)::int as "totalListings",
      coalesce(round(avg("commissionPercent"), 2), 0)::float as "totalCommissionPercent",
      coalesce(round(sum(price * "commissionPercent" / 100), 2), 0)::float as "totalEstimatedRevenue",
      coalesce(round(sum(price * "commissionPercent" / 100) filter (where status = 'SOLD'), 2), 0)::float as "collectedCommission",
      coalesce(round(sum(price * "commissionPercent" / 100) filter (where status in ('AVAILABLE', 'PENDING')), 2), 0)::float as "pendingCommission"
      from listings where "commissionPercent" is not null and "deletedAt" is null`);
    const answer = await api.get('/api/commissions/summary', { token: shop.admin.token });
    expect(answer.body.data).toEqual(expected);
  });

  it('counts each category and each agent as the listings do', async () => {
    const perCategory = await rows<{ id: string; count: number }>(sql`select c.id, count(l.id)::int as count from categories c left join listings l on l."categoryId" = c.id and l."deletedAt" is null group by c.id`);
    const categories = await api.get('/api/categories');
    for (const { id, count } of perCategory) {
      expect(categories.body.data.find((category: { id: string }) => category.id === id)).toMatchObject({ listingCount: count, _count: { listings: count } });
    }
    const one = await api.get(`/api/categories/${phonesId}`);
    expect(one.body.data.listingCount).toBe(perCategory.find((category) => category.id === phonesId)!.count);

    const perAgent = await rows<{ id: string; count: number }>(sql`select u.id, count(l.id)::int as count from users u left join listings l on l."agentId" = u.id and l."deletedAt" is null where u.role = 'AGENT' group by u.id`);
    const agents = await api.get('/api/auth/agents?limit=100', { token: shop.admin.token });
    for (const { id, count } of perAgent) {
      expect(agents.body.data.find((listed: { id: string }) => listed.id === id)).toMatchObject({ listingCount: count });
    }
  });
});

describe('GET /api/public/filter-options at scale', () => {
  /** How many available phones matching `where` carry each brand, lower-cased, and in all. */
  async function brandsOfPhones(where: SQL): Promise<{ total: number; brands: Map<string, number> }> {
    const found = await rows<{ brand: string; count: number }>(sql`select lower(l.attributes ->> 'brand') as brand, count(*)::int as count
      from listings l join categories c on c.id = l."categoryId"
      where ${available} and c.name = 'PHONES' and ${where} group by 1`);
    return { total: found.reduce((sum, row) => sum + row.count, 0), brands: new Map(found.map((row) => [row.brand, row.count])) };
  }

  it('estimates counts and total from a sample when more listings match than are counted one by one, and says so', async () => {
    const expected = await brandsOfPhones(sql`l.price >= 1`);
    expect(expected.total).toBeGreaterThan(COUNTED_LISTINGS);
    const answer = await api.get('/api/public/filter-options?category=Phones&priceMin=1');
    expect(answer.status).toBe(200);
    expect(answer.body.countsExact).toBe(false);
    expect(Math.abs(answer.body.total - expected.total) / expected.total).toBeLessThan(0.25);
    const counts = answer.body.data.brand.counts as Record<string, number>;
    for (const [brand, count] of Object.entries(counts)) {
      const actual = expected.brands.get(brand.toLowerCase()) ?? 0;
      expect({ brand, count, near: Math.abs(count - actual) <= 0.25 * actual + 0.02 * expected.total }).toMatchObject({ brand, near: true });
    }
    expect(answer.body.priceRange).toEqual((await rows(sql`select min(l.price)::float as min, max(l.price)::float as max
      from listings l join categories c on c.id = l."categoryId" where ${available} and c.name = 'PHONES' and l.price >= 1`))[0]);
  });

  it('counts exactly when few listings match', async () => {
    const expected = await brandsOfPhones(sql`l.price between 20000 and 20500`);
    expect(expected.total).toBeGreaterThan(0);
    expect(expected.total).toBeLessThanOrEqual(COUNTED_LISTINGS);
    const answer = await api.get('/api/public/filter-options?category=Phones&priceMin=20000&priceMax=20500');
    expect(answer.body.countsExact).toBe(true);
    expect(answer.body.total).toBe(expected.total);
    for (const [brand, count] of Object.entries(answer.body.data.brand.counts as Record<string, number>)) {
      expect({ brand, count }).toEqual({ brand, count: expected.brands.get(brand.toLowerCase()) ?? 0 });
    }
    expect(answer.body.priceRange).toEqual((await rows(sql`select min(l.price)::float as min, max(l.price)::float as max
      from listings l join categories c on c.id = l."categoryId" where ${available} and c.name = 'PHONES' and l.price between 20000 and 20500`))[0]);
  });

  it('gives the price range of a broad word and of filters, and none when nothing matches', async () => {
    for (const [query, where] of [
      ['q=airpods', sql`(${contains('airpods')} or l."searchWords" && array['airpods'])`],
      ['category=Phones&brand=apple', sql`c.name = 'PHONES' and ${attribute('brand', 'apple')}`],
      ['q=qqqzzz', sql`false`],
    ] as const) {
      const answer = await api.get(`/api/public/filter-options?${query}`);
      expect(answer.status).toBe(200);
      const [range] = await rows(sql`select min(l.price)::float as min, max(l.price)::float as max
        from listings l join categories c on c.id = l."categoryId" where ${available} and ${where}`);
      expect({ query, priceRange: answer.body.priceRange }).toEqual({ query, priceRange: range });
    }
  });
});
