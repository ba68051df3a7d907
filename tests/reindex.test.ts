import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rebuildDerivedData } from '../lib/listings/derived-data.js';
import { insertGeneratedListings } from '../lib/seeding/bulk-listings.js';
import { commandDatabase } from './support/command-database.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const run = promisify(execFile);
const projectRoot = path.resolve(import.meta.dirname, '..');

const server = useTestServer();
const api = server.api;
const shop = useShop(server);

/** Storefront and admin reads that every derived structure answers: kept totals, filter options, postings, price bands. */
const READS = [
  '/api/public/listings?page=1',
  '/api/public/listings?category=Phones&page=2',
  '/api/public/listings?q=samsung&page=1',
  '/api/public/listings?q=samsung&sort=price_asc&page=1',
  '/api/public/listings?brand=apple&page=1',
  '/api/public/listings?priceMax=5000&page=1',
  '/api/public/filter-options?category=Phones',
  '/api/public/suggest?q=gal',
  '/api/categories',
];

async function answers(): Promise<unknown[]> {
  const bodies: unknown[] = [];
  for (const path of READS) {
    const response = await api.get(path, { token: path.startsWith('/api/categories') ? shop.admin.token : undefined });
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
    bodies.push(response.body);
  }
  return bodies;
}

describe('rebuilding the derived data', () => {
  beforeAll(async () => {
    await insertGeneratedListings(server.db, { total: 600, seed: 11, agentIds: [shop.agent.id, shop.otherAgent.id] });
  });

  it('brings back every kept count, postings and price band, so the storefront answers as before', async () => {
    const before = await answers();
    for (const table of ['search_postings', 'search_other_words', 'listing_totals', 'agent_listing_totals', 'listing_attribute_values', 'listing_price_band_totals']) {
      await server.db.execute(sql`delete from ${sql.identifier(table)}`);
    }
    expect(await answers()).not.toEqual(before);
    const lines: string[] = [];
    await rebuildDerivedData(server.db, (line) => lines.push(line));
    expect(await answers()).toEqual(before);
    expect(lines.map((line) => line.replace(/\(\d+\.\d s\)$/, '(s)'))).toEqual([
      'rebuilt the listing totals and filter options (s)',
      'rebuilt the search postings (s)',
      'rebuilt the price band totals (s)',
      "rebuilt the listings' indexes (s)",
      'analyzed the listings and search postings for the planner (s)',
    ]);
  });
});

describe('npm run reindex', () => {
  it('names each step with its time as it goes, and the whole', async () => {
    const database = await commandDatabase();
    try {
      const { stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/reindex.ts'], {
        cwd: projectRoot,
        env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', DATABASE_DRIVER: '', ...database.env },
      });
      expect(stderr).toMatch(/^Rebuilding the derived data of .+…$/m);
      expect(stderr).toMatch(/^rebuilt the search postings \(\d+\.\d s\)$/m);
      expect(stderr).toMatch(/^Reindexed in \d+\.\d s\.$/m);
    } finally {
      await database.drop();
    }
  }, 120_000);
});
