import { and, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { config } from '../lib/config.js';
import { EXACT_TOTAL_LIMIT } from '../lib/db/bounded-total.js';
import { connect, type Database } from '../lib/db/client.js';
import { COUNTED_LISTINGS } from '../lib/listings/read-tuning.js';
import { listings } from '../lib/db/schema.js';
import type { RowSelection } from '../lib/listings/newest-first.js';
import { attributeListings } from '../lib/storefront/attribute-listings.js';
import { dayAfterNewest, documentPage, type DocumentSearch } from '../lib/storefront/document-reads.js';
import { allowedTypos, editDistance, foldWord, matchesWholeWordsOnly, queryWords } from '../lib/storefront/query-words.js';
import { COMMON_WORD_LISTINGS } from '../lib/storefront/word-expansion.js';
import { SERVED_RESULTS } from '../lib/storefront/read-plan.js';
import { withDerivedDataDeferred } from '../lib/listings/derived-data.js';
import { ensureDefaultCategories, insertGeneratedListings } from '../lib/seeding/bulk-listings.js';
import { catalogueBrowseCeilings, CEILING_PERCENTILES } from '../lib/seeding/catalogue-prices.js';
import { shopperQueries } from '../lib/seeding/shopper-queries.js';
import { buildListing } from './support/catalog-factories.js';
import { testPostgresUrl } from './support/databases.js';
import { buildAgent } from './support/factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

/**
 * Every list answered by the service is compared with the straightforward statement over the same
 * rows (filters written the obvious way, every match sorted in the order asked): the same ids in the
 * same order, and the same total (exact below 10,000, from there 10,000 flagged), with the plan
 * that read it. The store is the seeder's realistic catalogue, with more available listings than
 * are served, and a few in the trash, which no list or count may show. Every comparison runs
 * again after a mix of writes.
 */
const LISTINGS = 20_000;
const TRASHED = 200;

// Each test reads many lists and their straightforward statements over the 20,000 listings: on the
// embedded database beside other suites on two cores, 15-30 s each.
vi.setConfig({ testTimeout: 120_000 });

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
    withDerivedDataDeferred(db, async () => {
      await insertGeneratedListings([db], { total: LISTINGS, seed: 7, categories: await ensureDefaultCategories(db), agentIds: [shop.agent.id, shop.otherAgent.id, third.id] });
      // One attribute value more than 10,000 available listings hold, about one in sixteen of them
      // spelling it in capitals: its total is known from the kept counts, without counting.
      await db.execute(sql`update listings set attributes = attributes || jsonb_build_object('connectivity', case when md5(id::text) < '1' then 'WI-FI' else 'Wi-Fi' end)
        where not attributes ? 'connectivity'`);
    }),
  );
  await server.db.execute(sql`update listings set "deletedAt" = now() - interval '1 day' where id in (select id from listings order by md5(id::text) limit ${TRASHED})`);
  await server.db.execute(sql`analyze listings`);
  await oracleWords();
  const [phones, laptops] = await rows<{ id: string }>(sql`select id from categories where name in ('PHONES', 'LAPTOPS') order by name desc`);
  phonesId = phones!.id;
  laptopsId = laptops!.id;
  // The realistic catalogue's descriptions (10 to 80 words) make the text index take minutes to build on a busy machine.
}, 600_000);

/**
 * The ids of every listing out of the trash matching `where`, in `order` (newest first unless
 * said), as the obvious statement finds them; `o` is the listing's words (oracleWords()).
 */
async function straightforward(where: SQL, order: SQL = sql`l."createdAt" desc, l.id desc`): Promise<string[]> {
  const found = await rows<{ id: string }>(sql`select l.id from listings l join categories c on c.id = l."categoryId" join oracle_words o on o.id = l.id
    where ${where} and l."deletedAt" is null order by ${order}`);
  return found.map((row) => row.id);
}

const available = sql`l.status = 'AVAILABLE' and l."deletedAt" is null`;
/** The administrators' and agents' search: a substring of title or description. */
const contains = (text: string) => sql`(l.title ilike ${`%${text}%`} or l.description ilike ${`%${text}%`})`;
const attribute = (name: string, value: string) => sql`lower(l.attributes ->> ${name}) = lower(${value})`;

/** The words of a text as PostgreSQL's `simple` parser splits and lower-cases them. */
const wordsOf = (text: SQL) => sql`tsvector_to_array(to_tsvector('simple', ${text}))`;
const textAttribute = (name: string) => sql`case jsonb_typeof(l.attributes -> ${name}) when 'string' then l.attributes ->> ${name} end`;

/**
 * Each listing's words, split once for every comparison that follows (again after writes): those
 * of its title, brand and model, and those of its title, attribute values and description.
 */
async function oracleWords(): Promise<void> {
  await server.db.execute(sql`drop table if exists oracle_words`);
  await server.db.execute(sql`create table oracle_words as select l.id,
    ${wordsOf(sql`concat_ws(' ', l.title, ${textAttribute('brand')}, ${textAttribute('model')})`)} as title_words,
    ${wordsOf(sql`concat_ws(' ', l.title,
      (select string_agg(value, ' ') from jsonb_each_text(l.attributes) where jsonb_typeof(l.attributes -> key) in ('string', 'number')), l.description)`)} as every_word
    from listings l`);
}
const titleWords = sql`o.title_words`;
const everyWord = sql`o.every_word`;

/** `word` (as the parser gives it) is a whole word of the title, brand or model: how a word shorter than three characters or without a letter matches. */
const wholeWord = (word: string) => sql`${word} = any(${titleWords})`;
/** A word of the title, brand or model holds `word`. */
const inTitle = (word: string) => sql`exists (select from unnest(${titleWords}) as held where strpos(held, ${word}) > 0)`;
/** `word` matches as typed: in a title, brand or model word, or as the beginning of any word. */
const asTyped = (word: string) => sql`(${inTitle(word)} or exists (select from unnest(${everyWord}) as held where starts_with(held, ${word})))`;
/** `word` matches as typed, or any of `near` (its near spellings) is a word of the listing. */
const matchesWord = (word: string, near: string[] = []) => sql`(${asTyped(word)} or ${everyWord} && ${sql.param(near)}::text[])`;

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
  it('holds more available listings than are served', async () => {
    const [available] = await rows<{ count: number }>(sql`select count(*)::int as count from listings where status = 'AVAILABLE' and "deletedAt" is null`);
    expect(available!.count).toBeGreaterThan(SERVED_RESULTS);
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

  it('holds one attribute value in more available listings than are counted', async () => {
    expect((await straightforward(sql`${available} and ${attribute('connectivity', 'wi-fi')}`)).length).toBeGreaterThan(EXACT_TOTAL_LIMIT);
  });

  it('holds listings in the trash, available ones among them', async () => {
    const [trashed] = await rows<{ count: number; available: number }>(sql`select count(*)::int as count,
      (count(*) filter (where status = 'AVAILABLE'))::int as available from listings where "deletedAt" is not null`);
    expect(trashed!.count).toBe(TRASHED);
    expect(trashed!.available).toBeGreaterThan(TRASHED / 2);
  });
});

/** The plan a storefront answer names in its Server-Timing header. */
const planOf = (answer: { headers: Headers }) => /plan;desc="([a-z-]+)"/.exec(answer.headers.get('server-timing') ?? '')?.[1];

/** A word of a query as the documents' parser gives it, with how it matches (see docs/search.md). */
interface OracleWord {
  word: string;
  wholeOnly: boolean;
  /** Words of available listings a typo or two away (or equal but for accents). */
  near: string[];
}

/**
 * The query's words as the parser splits each space-separated part, and for each the words of
 * available listings it nearly spells, found among all of them by edit distance (not through any
 * structure the service keeps). Undefined when some part gives no word: nothing matches.
 */
async function oracleWordsOf(text: string): Promise<OracleWord[] | undefined> {
  const parts = queryWords(text);
  const split = await rows<{ words: string[] }>(sql`select ${wordsOf(sql`part`)} as words from unnest(${sql.param(parts)}::text[]) as part`);
  if (parts.length === 0 || split.some((row) => row.words.length === 0)) return undefined;
  const words = [...new Set(split.flatMap((row) => row.words))];
  // A near spelling is a word of an available listing's title, brand or model, or a word at least COMMON_WORD_LISTINGS of them hold.
  const held = await rows<{ word: string }>(sql`
    with lengths as (select ${Math.min(...words.map((word) => word.length)) - 2}::int as shortest, ${Math.max(...words.map((word) => word.length)) + 2}::int as longest)
    select held as word from listings l join oracle_words o on o.id = l.id, unnest(o.every_word) as held, lengths
    where ${available} and char_length(held) between shortest and longest group by held having count(*) >= ${COMMON_WORD_LISTINGS}
    union
    select held from listings l join oracle_words o on o.id = l.id, unnest(o.title_words) as held, lengths
    where ${available} and char_length(held) between shortest and longest`);
  return words.map((word) => {
    const folded = foldWord(word);
    const wholeOnly = matchesWholeWordsOnly(word);
    const typos = allowedTypos(folded);
    const near = wholeOnly || typos === 0 ? [] : held.map((row) => row.word).filter((term) => term !== word && editDistance(foldWord(term), folded) <= typos);
    return { word, wholeOnly, near };
  });
}

/** Every word matches at `level` (see WordMatch in lib/storefront/document-query.ts). */
function wordsMatch(words: OracleWord[], level: 'title' | 'title-near' | 'typed' | 'near'): SQL {
  return and(
    ...words.map(({ word, wholeOnly, near }) => {
      if (wholeOnly) return wholeWord(word);
      if (level === 'title') return inTitle(word);
      if (level === 'title-near') return sql`(${inTitle(word)} or ${titleWords} && ${sql.param(near)}::text[])`;
      return level === 'typed' ? asTyped(word) : matchesWord(word, near);
    }),
  )!;
}

/** The listings matching a storefront search text (any way a word matches), as the obvious condition. */
async function searched(text: string): Promise<SQL> {
  const words = await oracleWordsOf(text);
  return words === undefined ? sql`false` : wordsMatch(words, 'near');
}

/**
 * Relevance as a ranked statement, newest first within each rank: every word in the title, brand
 * or model as typed; there with near spellings; every word as typed anywhere; the rest.
 */
async function relevanceOrder(text: string): Promise<SQL> {
  const words = await oracleWordsOf(text);
  if (words === undefined) return sql`l."createdAt" desc`;
  return sql`case when ${wordsMatch(words, 'title')} then 0 when ${wordsMatch(words, 'title-near')} then 1
    when ${wordsMatch(words, 'typed')} then 2 else 3 end, l."createdAt" desc, l.id desc`;
}

const byPrice = (direction: 'asc' | 'desc') => sql`l.price ${sql.raw(direction)}, l."createdAt" desc, l.id desc`;

/** Pages near, deep, last and past the last of a list of `count` matches, 50 a page. */
function pagesOf(count: number): number[] {
  const last = Math.max(1, Math.min(Math.ceil(count / 50), SERVED_RESULTS / 50));
  return [...new Set([1, 3, Math.min(40, last), last, last + 1])];
}

/** The list answers `all`'s pages as expectPage() says, each read by `plan` (a page past the served results by `past-served`). */
async function expectList(query: string, all: string[], plan: string): Promise<void> {
  for (const page of pagesOf(all.length)) {
    const answer = await api.get(`/api/public/listings?${query}&limit=50&page=${page}`);
    expectPage(answer, all, page, 50, SERVED_RESULTS);
    const expected = plan !== 'no-match' && (page - 1) * 50 >= SERVED_RESULTS ? 'past-served' : plan;
    expect({ query, page, plan: planOf(answer) }).toEqual({ query, page, plan: expected });
  }
}

/** Searches of each kind a shopper types, two of each, and a few shaped by hand. */
function searchTexts(): string[] {
  const byKind = new Map<string, string[]>();
  for (const { kind, q } of shopperQueries(LISTINGS)) byKind.set(kind, [...(byKind.get(kind) ?? []), q]);
  return [...[...byKind.values()].flatMap((texts) => texts.slice(0, 2)), 'zenbook', 'xps 13', 'hp', 'ested', 'SM-A546E', '%', '📱'];
}

/** Every comparison of the storefront's lists with the straightforward statement; `when` names the state of the store. */
function compareStorefrontLists(when: string): void {
  describe(`GET /api/public/listings at scale matches the straightforward statement ${when}`, () => {
    const filtered: Array<[query: string, where: () => SQL, plan: string]> = [
      ['', () => available, 'newest-index'],
      ['category=Phones', () => sql`${available} and lower(c."displayName") = 'phones'`, 'newest-index'],
      ['category=laptops', () => sql`${available} and lower(c.name) = 'laptops'`, 'newest-index'],
      ['category=nowhere', () => sql`false`, 'no-match'],
      ['brand=apple', () => sql`${available} and ${attribute('brand', 'apple')}`, 'search-index'],
      ['connectivity=wi-fi', () => sql`${available} and ${attribute('connectivity', 'wi-fi')}`, 'search-index'],
      ['category=Phones&connectivity=Wi-Fi', () => sql`${available} and lower(c."displayName") = 'phones' and ${attribute('connectivity', 'wi-fi')}`, 'search-index'],
      ['category=Phones&brand=samsung&condition=Brand%20New', () =>
        sql`${available} and lower(c."displayName") = 'phones' and ${attribute('brand', 'samsung')} and ${attribute('condition', 'Brand New')}`, 'search-index'],
      ['priceMax=2000', () => sql`${available} and l.price <= 2000`, 'search-index'],
      ['priceMin=10000&priceMax=10500', () => sql`${available} and l.price >= 10000 and l.price <= 10500`, 'search-index'],
      ['category=Phones&priceMin=12500&priceMax=100000', () => sql`${available} and lower(c."displayName") = 'phones' and l.price >= 12500 and l.price <= 100000`, 'search-index'],
      ['priceMin=9000&priceMax=1000', () => sql`false`, 'search-index'],
    ];
    it('keeps per attribute value the available listings holding it, in any spelling, within a category or in all', async () => {
      const filters = [['brand', 'apple'], ['connectivity', 'wi-fi'], ['storage', '256gb'], ['condition', 'Brand New'], ['brand', 'nowhere']] as const;
      for (const categoryId of [undefined, phonesId]) {
        const kept = await attributeListings(server.db, filters, categoryId);
        const held = await Promise.all(
          filters.map(async ([name, value]) => {
            const inCategory = categoryId === undefined ? sql`true` : sql`l."categoryId" = ${categoryId}`;
            return (await straightforward(sql`${available} and ${inCategory} and ${attribute(name, value)}`)).length;
          }),
        );
        expect(kept.map((counted) => counted?.listings)).toEqual(held);
        kept.forEach((counted, index) => expect(counted!.surely).toBeLessThanOrEqual(held[index]!));
        if (categoryId === undefined) expect(kept[1]!.surely).toBeGreaterThanOrEqual(EXACT_TOTAL_LIMIT);
      }
    });

    for (const [query, where, plan] of filtered) {
      it(`answers ${query || 'no filter'} newest first alike`, async () => {
        await expectList(query, await straightforward(where()), plan);
      });
    }

    for (const text of searchTexts()) {
      const q = `q=${encodeURIComponent(text)}`;
      it(`answers ${q} newest first, by price and by relevance alike`, async () => {
        const where = sql`${available} and ${await searched(text)}`;
        // A word that no available listing holds in any way is answered without reading.
        const words = await oracleWordsOf(text);
        const held = await Promise.all((words ?? []).map(async (word) => (await straightforward(sql`${available} and ${wordsMatch([word], 'near')}`)).length > 0));
        const none = words === undefined || held.includes(false);
        const plan = (searchPlan: string) => (none ? 'no-match' : searchPlan);
        await expectList(`${q}&sort=newest`, await straightforward(where), plan('search-index'));
        await expectList(`${q}&sort=price_asc`, await straightforward(where, byPrice('asc')), plan('search-index'));
        await expectList(`${q}&sort=price_desc`, await straightforward(where, byPrice('desc')), plan('search-index'));
        await expectList(q, await straightforward(where, await relevanceOrder(text)), plan('relevance-tiers'));
      });
    }

    for (const [query, text, filter] of [
      ['brand=Dell', 'Surface', () => attribute('brand', 'Dell')],
      ['category=Phones', 'ipad', () => sql`lower(c."displayName") = 'phones'`],
      ['storage=256GB&priceMax=30000', 'a54', () => sql`${attribute('storage', '256GB')} and l.price <= 30000`],
      ['brand=dell', '13', () => attribute('brand', 'dell')],
    ] as const) {
      const q = `q=${encodeURIComponent(text)}&${query}`;
      it(`answers ${q} newest first, by price and by relevance alike`, async () => {
        const where = sql`${available} and ${await searched(text)} and ${filter()}`;
        await expectList(`${q}&sort=newest`, await straightforward(where), 'search-index');
        await expectList(`${q}&sort=price_desc`, await straightforward(where, byPrice('desc')), 'search-index');
        await expectList(q, await straightforward(where, await relevanceOrder(text)), 'relevance-tiers');
      });
    }

    it('reads a page through wider windows when the first holds too few, whatever the estimate', async () => {
      // The word most available listings hold: its matches are read in windows of the order's key.
      const [frequent] = await rows<{ term: string; listings: number }>(
        sql`select term, listings from search_terms where kind = 'text' and term ~ '^[a-z]{4,}$' order by listings desc, term limit 1`,
      );
      const [counted] = await rows<{ available: number }>(sql`select count(*)::int as available from listings l where ${available}`);
      const held = await straightforward(sql`${available} and l."searchDocument" @@ ${`'${frequent!.term}'`}::tsquery`);
      expect(held.length).toBeGreaterThan(3_000);
      const selectIds: RowSelection<{ id: string }> = (source) => source.select({ id: listings.id }).from(listings).$dynamic();
      const orders = { newest: sql`l."createdAt" desc, l.id desc`, price_asc: byPrice('asc'), price_desc: byPrice('desc') } as const;
      for (const [order, sorted] of Object.entries(orders) as Array<[keyof typeof orders, SQL]>) {
        const all = await straightforward(sql`${available} and l."searchDocument" @@ ${`'${frequent!.term}'`}::tsquery`, sorted);
        // An estimate thirty times the matches makes the first window hold about a twentieth of what
        // the page needs, so that the page is read from wider ones after it.
        for (const estimate of [held.length * 30, held.length]) {
          const search: DocumentSearch = { query: `'${frequent!.term}'`, estimate, available: counted!.available, dayAfterNewest: await dayAfterNewest(server.db) };
          for (const offset of [0, 950, 2_950]) {
            const page = await documentPage(server.db, search, order, { offset, limit: 50 }, selectIds);
            expect({ order, estimate, offset, ids: page.map((row) => row.id) }).toEqual({ order, estimate, offset, ids: all.slice(offset, offset + 50) });
          }
        }
      }
    });

    for (const [query, where] of [
      ['', () => available],
      ['category=laptops', () => sql`${available} and lower(c.name) = 'laptops'`],
    ] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        it(`answers ${query || 'no filter'} by price ${direction} alike`, async () => {
          await expectList(`${query}&sort=price_${direction}`, await straightforward(where(), byPrice(direction)), 'price-index');
        });
      }
    }
    for (const [query, where] of [
      ['brand=apple', () => sql`${available} and ${attribute('brand', 'apple')}`],
      ['priceMin=10000&priceMax=10500', () => sql`${available} and l.price >= 10000 and l.price <= 10500`],
    ] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        it(`answers ${query} by price ${direction} alike`, async () => {
          await expectList(`${query}&sort=price_${direction}`, await straightforward(where(), byPrice(direction)), 'search-index');
        });
      }
    }
  });
}

compareStorefrontLists('as seeded');

describe('the store after a mix of writes', () => {
  it('takes edits, status changes, moves, price changes, trash and restores through the triggers', async () => {
    const some = (count: number, salt: string) => sql`(select id from listings where "deletedAt" is null order by md5(id::text || ${salt}) limit ${count})`;
    await server.db.execute(sql`update listings set status = 'SOLD' where id in ${some(300, 'sold')}`);
    await server.db.execute(sql`update listings set status = 'AVAILABLE' where id in (select id from listings where status <> 'AVAILABLE' and "deletedAt" is null order by md5(id::text) limit 200)`);
    await server.db.execute(sql`update listings set title = title || ' Zephyrion edition', description = description || ' comes with a tripod' where id in ${some(150, 'edit')}`);
    await server.db.execute(sql`update listings set attributes = attributes || '{"brand": "Samsung"}' where id in ${some(150, 'brand')}`);
    await server.db.execute(sql`update listings set price = round((price * 1.13)::numeric, 2) where id in ${some(150, 'price')}`);
    await server.db.execute(sql`update listings set "categoryId" = ${laptopsId} where id in ${some(100, 'move')}`);
    await server.db.execute(sql`update listings set "deletedAt" = now() where id in ${some(100, 'trash')}`);
    await server.db.execute(sql`update listings set "deletedAt" = null where id in (select id from listings where "deletedAt" is not null order by md5(id::text) limit 50)`);
    await server.db.execute(sql`delete from listings where id in ${some(100, 'delete')}`);
    await server.db.execute(sql`analyze listings`);
    await oracleWords();
    const [edited] = await rows<{ count: number }>(sql`select count(*)::int as count from listings where title like '%Zephyrion edition'`);
    expect(edited!.count).toBeGreaterThan(0);
  });
});

compareStorefrontLists('after writes');

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
    await oracleWords();
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
      await expectList(query, await straightforward(holds(...amenities)), 'search-index');
    });
  }
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
  /** How many available phones matching `where` (`o` their words) carry each brand, lower-cased, and in all. */
  async function brandsOfPhones(where: SQL): Promise<{ total: number; brands: Map<string, number> }> {
    const found = await rows<{ brand: string; count: number }>(sql`select lower(l.attributes ->> 'brand') as brand, count(*)::int as count
      from listings l join categories c on c.id = l."categoryId" join oracle_words o on o.id = l.id
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

  it('counts exactly the matches of rare words and model codes, which the kept counts say few listings hold', async () => {
    const texts = shopperQueries(LISTINGS).filter(({ kind }) => kind === 'rare-word' || kind === 'model-code').map(({ q }) => q);
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) {
      const expected = await brandsOfPhones(await searched(text));
      expect(expected.total).toBeLessThanOrEqual(COUNTED_LISTINGS);
      const answer = await api.get(`/api/public/filter-options?category=Phones&q=${encodeURIComponent(text)}`);
      expect(answer.status).toBe(200);
      expect({ text, exact: answer.body.countsExact, total: answer.body.total }).toEqual({ text, exact: true, total: expected.total });
      for (const [brand, count] of Object.entries(answer.body.data.brand.counts as Record<string, number>)) {
        expect({ text, brand, count }).toEqual({ text, brand, count: expected.brands.get(brand.toLowerCase()) ?? 0 });
      }
    }
  });

  it('gives the price range of a broad word and of filters, and none when nothing matches', async () => {
    for (const [query, where] of [
      ['q=airpods', await searched('airpods')],
      ['category=Phones&brand=apple', sql`c.name = 'PHONES' and ${attribute('brand', 'apple')}`],
      ['q=qqqzzz', sql`false`],
    ] as const) {
      const answer = await api.get(`/api/public/filter-options?${query}`);
      expect(answer.status).toBe(200);
      const [range] = await rows(sql`select min(l.price)::float as min, max(l.price)::float as max
        from listings l join categories c on c.id = l."categoryId" join oracle_words o on o.id = l.id where ${available} and ${where}`);
      expect({ query, priceRange: answer.body.priceRange }).toEqual({ query, priceRange: range });
    }
  });
});
