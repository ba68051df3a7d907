import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { settings } from '../lib/db/schema.js';
import { inTransaction } from '../lib/db/transaction.js';
import { databaseErrorToApiError } from '../lib/http/database-errors.js';
import { buildCategory, buildListing, PHONE_RULES } from './support/catalog-factories.js';
import type { TestUser } from './support/factories.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

/**
 * Hundreds of writes arrive at once and queue for the pool's ten connections. What these tests
 * hold is that every one of them lands and the kept totals stay exact; the short wait for a free
 * connection that turns a stalled database into a quick 503 would instead refuse the tail of the
 * queue on a slow machine.
 */
const server = useTestServer({ DATABASE_CONNECT_TIMEOUT_MS: '30000' });
const api = server.api;
const shop = useShop(server);

async function rows(query: ReturnType<typeof sql>): Promise<unknown[]> {
  return ((await server.db.execute(query)) as unknown as { rows: unknown[] }).rows;
}

/** The kept statistics against a count made afresh from the listings: they must be equal. */
async function keptAndRecounted() {
  return {
    kept: {
      totals: await rows(sql`select "categoryId", status, listings::int, value::text, stock::int from listing_totals where listings <> 0 order by 1, 2`),
      agents: await rows(sql`select "agentId", status, listings::int from agent_listing_totals where listings <> 0 order by 1, 2`),
      values: await rows(sql`select "categoryId", field, value, listings::int from listing_attribute_values order by 1, 2, 3`),
      searchTerms: await rows(sql`select kind, term, listings::int from search_terms where listings <> 0 order by 1, 2`),
    },
    recounted: {
      totals: await rows(sql`select "categoryId", status, count(*)::int as listings, sum(price)::text as value, sum("stockQuantity")::int as stock
        from listings group by 1, 2 order by 1, 2`),
      agents: await rows(sql`select "agentId", status, count(*)::int as listings from listings where "agentId" is not null group by 1, 2 order by 1, 2`),
      values: await rows(sql`select listing."categoryId", offered.field, offered.value, count(*)::int as listings
        from listings as listing, listing_filter_values(listing) as offered group by 1, 2, 3 order by 1, 2, 3`),
      searchTerms: await rows(sql`select offered.kind, offered.term, count(*)::int as listings
        from listings as listing, listing_search_terms(listing) as offered group by 1, 2 order by 1, 2`),
    },
  };
}

async function listingsOf(count: number, categoryId: string, agent: TestUser, status: (index: number) => 'AVAILABLE' | 'PENDING') {
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      buildListing(server.db, {
        categoryId,
        agentId: agent.id,
        status: status(index),
        price: 100 + index,
        attributes: { brand: index % 3 ? 'Apple' : 'Samsung', model: `Model ${index % 5}`, storage: '128GB' },
      }),
    ),
  );
}

function statuses(responses: Array<{ status: number }>): Record<number, number> {
  return responses.reduce<Record<number, number>>((tally, response) => ({ ...tally, [response.status]: (tally[response.status] ?? 0) + 1 }), {});
}

// Up to 800 writes each: what they hold is that every write lands and the totals stay exact, not
// how fast a loaded two-core machine drains them.
describe('concurrent writes to listings of one category', { timeout: 120_000 }, () => {
  it('flips 200 listings between AVAILABLE and PENDING in opposite directions at once, four rounds: all 200, totals exact', async () => {
    const category = await buildCategory(server.db);
    const listings = await listingsOf(200, category.id, shop.agent, (index) => (index % 2 ? 'PENDING' : 'AVAILABLE'));
    const current = new Map(listings.map((listing) => [listing.id, listing.status]));
    for (let round = 0; round < 4; round += 1) {
      const responses = await Promise.all(
        listings.map((listing) => {
          const next = current.get(listing.id) === 'AVAILABLE' ? 'PENDING' : 'AVAILABLE';
          current.set(listing.id, next);
          return api.patch(`/api/listings/${listing.id}`, { token: shop.admin.token, json: { status: next } });
        }),
      );
      expect(statuses(responses)).toEqual({ 200: 200 });
    }
    const { kept, recounted } = await keptAndRecounted();
    expect(kept).toEqual(recounted);
  });

  it('lets two agents flip status and change price on their own 100 listings each, all at once: all 200, totals exact', async () => {
    const category = await buildCategory(server.db);
    const agents = [shop.agent, shop.otherAgent];
    const own = await Promise.all(agents.map((agent, which) => listingsOf(100, category.id, agent, (index) => ((index + which) % 2 ? 'PENDING' : 'AVAILABLE'))));
    const responses = await Promise.all(
      own.flatMap((listings, which) =>
        listings.flatMap((listing, index) => [
          api.patch(`/api/listings/${listing.id}`, { token: agents[which]!.token, json: { status: listing.status === 'AVAILABLE' ? 'PENDING' : 'AVAILABLE' } }),
          api.patch(`/api/listings/${listing.id}`, { token: agents[which]!.token, json: { price: 500 + index } }),
        ]),
      ),
    );
    expect(statuses(responses)).toEqual({ 200: 400 });
    const { kept, recounted } = await keptAndRecounted();
    expect(kept).toEqual(recounted);
  });

  it('moves 400 listings between two categories in both directions at once: all 200, totals exact', async () => {
    const [first, second] = [await buildCategory(server.db), await buildCategory(server.db, { schemaRules: PHONE_RULES })];
    const inFirst = await listingsOf(200, first.id, shop.agent, () => 'AVAILABLE');
    const inSecond = await listingsOf(200, second.id, shop.otherAgent, () => 'AVAILABLE');
    const responses = await Promise.all([
      ...inFirst.map((listing) => api.patch(`/api/listings/${listing.id}`, { token: shop.admin.token, json: { categoryId: second.id } })),
      ...inSecond.map((listing) => api.patch(`/api/listings/${listing.id}`, { token: shop.admin.token, json: { categoryId: first.id } })),
    ]);
    expect(statuses(responses)).toEqual({ 200: 400 });
    const { kept, recounted } = await keptAndRecounted();
    expect(kept).toEqual(recounted);
  });
});

describe('the transaction runner', () => {
  const lostRace = (code: string) => Object.assign(new Error('could not serialize access'), { code });

  it.each(['40P01', '40001'])('runs a transaction that lost a race (%s) again, and keeps what the successful run wrote', async (code) => {
    const key = `runner-${code}-${Date.now()}`;
    let attempts = 0;
    const result = await inTransaction(server.db, async (tx) => {
      attempts += 1;
      await tx.insert(settings).values({ key, value: attempts });
      if (attempts < 3) throw lostRace(code);
      return 'done';
    });
    expect([result, attempts]).toEqual(['done', 3]);
    expect(await server.db.select().from(settings).where(eq(settings.key, key))).toEqual([expect.objectContaining({ key, value: 3 })]);
  });

  it('gives up after four runs, and the failure is answered as a 503 envelope', async () => {
    let attempts = 0;
    const failure = await inTransaction(server.db, async () => {
      attempts += 1;
      throw lostRace('40P01');
    }).catch((error: unknown) => error);
    expect(attempts).toBe(4);
    expect(databaseErrorToApiError(failure)).toMatchObject({ status: 503 });
  });

  it('never runs again a transaction that failed for another reason', async () => {
    let attempts = 0;
    await inTransaction(server.db, async () => {
      attempts += 1;
      throw lostRace('23505');
    }).catch(() => undefined);
    expect(attempts).toBe(1);
  });
});
