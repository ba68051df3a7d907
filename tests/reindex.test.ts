import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rebuildDerivedData, withDerivedDataSetAside } from '../lib/listings/derived-data.js';
import { ensureDefaultCategories, insertGeneratedListings } from '../lib/seeding/bulk-listings.js';
import { commandDatabase } from './support/command-database.js';
import { testPostgresUrl } from './support/databases.js';
import { openRawDatabase } from './support/original-database.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const run = promisify(execFile);
const projectRoot = path.resolve(import.meta.dirname, '..');

const server = useTestServer();
const api = server.api;
const shop = useShop(server);

/** Storefront and admin reads that every derived structure answers: kept totals, filter options, search terms, the search index. */
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
    await insertGeneratedListings([server.db], { total: 600, seed: 11, categories: await ensureDefaultCategories(server.db), agentIds: [shop.agent.id, shop.otherAgent.id] });
  });

  it('brings back every kept count and search term, so the storefront answers as before', async () => {
    const before = await answers();
    for (const table of ['listing_totals', 'agent_listing_totals', 'listing_attribute_values', 'search_terms']) {
      await server.db.execute(sql`delete from ${sql.identifier(table)}`);
    }
    expect(await answers()).not.toEqual(before);
    const lines: string[] = [];
    await rebuildDerivedData(server.db, (line) => lines.push(line));
    expect(await answers()).toEqual(before);
    expect(lines.map((line) => line.replace(/\(\d+\.\d s\)$/, '(s)'))).toEqual([
      'rebuilt the listing totals, filter options and search terms (s)',
      "rebuilt the listings' indexes (s)",
      'analyzed the listings and search terms for the planner (s)',
    ]);
  });
});

describe('a bulk load that fails', () => {
  it('leaves every listing index and trigger in place, and none of its listings', async () => {
    const stateOf = async () => {
      const answer = await server.db.execute(sql`select (select count(*)::int from listings) as listings,
        (select count(*)::int from unfinished_bulk_loads) as unfinished,
        (select count(*)::int from pg_trigger where tgrelid = 'listings'::regclass and tgenabled = 'D') as disabled,
        (select string_agg(indexname, ',' order by indexname) from pg_indexes where tablename = 'listings') as indexes`);
      return (answer as unknown as { rows: unknown[] }).rows[0];
    };
    const before = await stateOf();
    // On PostgreSQL over two connections of the pool, holding the lock on a third; the embedded database has one.
    const access = testPostgresUrl ? { connections: 2, shared: true } : { connections: 1, shared: false };
    const categories = await ensureDefaultCategories(server.db);
    const failing = withDerivedDataSetAside(server.db, access, async (transactions) => {
      await insertGeneratedListings(transactions, { total: 3_000, seed: 5, categories, agentIds: [shop.agent.id] });
      throw new Error('the load failed');
    });
    await expect(failing).rejects.toThrow('the load failed');
    expect(await stateOf()).toEqual(before);
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
      expect(stderr).toMatch(/^rebuilt the listing totals, filter options and search terms \(\d+\.\d s\)$/m);
      expect(stderr).toMatch(/^Reindexed in \d+\.\d s\.$/m);
    } finally {
      await database.drop();
    }
  }, 120_000);
});

describe('an interrupted npm run seed', () => {
  /** Runs the seeder and kills it as soon as a line of its progress matches `killAt`; answers whether it did. */
  function seedKilledAt(env: Record<string, string>, listings: number, killAt: RegExp): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--listings', String(listings), '--agents', '2'], {
        cwd: projectRoot,
        env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', DATABASE_DRIVER: '', ...env },
      });
      let killed = false;
      let printed = '';
      child.stderr.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        if (!killed && killAt.test(printed)) {
          killed = true;
          child.kill('SIGKILL');
        }
      });
      child.on('error', reject);
      child.on('close', () => resolve(killed));
    });
  }

  it('is finished by the next command: its listings kept, every listing index, trigger and kept count back', async () => {
    const database = await commandDatabase();
    try {
      const raw = () => openRawDatabase({ env: database.env, dataDir: database.env.DATA_DIR ?? '', drop: database.drop });
      const stateOf = async () => {
        const db = await raw();
        try {
          const [counted] = await db.query<{ listings: number; kept: number; unfinished: number }>(
            `select (select count(*)::int from listings) as listings, (select coalesce(sum(listings), 0)::int from listing_totals) as kept,
              (select count(*)::int from unfinished_bulk_loads) as unfinished`,
          );
          const indexes = await db.query<{ name: string }>("select indexname as name from pg_indexes where tablename = 'listings' order by 1");
          const disabled = await db.query<{ name: string }>("select tgname as name from pg_trigger where tgrelid = 'listings'::regclass and tgenabled = 'D'");
          return { ...counted, indexes: indexes.map((row) => row.name), disabled: disabled.map((row) => row.name) };
        } finally {
          await db.close();
        }
      };
      const before = await stateOf();
      expect(before).toMatchObject({ listings: 0, kept: 0, unfinished: 0, disabled: [] });
      expect(before.indexes.length).toBeGreaterThan(10);
      // Killed once every listing is written and the first index is built again: the load is then
      // committed, its other indexes missing and its trigger off, the moment a load is most exposed.
      expect(await seedKilledAt(database.env, 25_000, /^built \S+ \(/m)).toBe(true);
      const killed = await stateOf();
      expect(killed).toMatchObject({ listings: 25_000, unfinished: 1 });
      expect(killed.indexes.length).toBeLessThan(before.indexes.length);
      const { stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], {
        cwd: projectRoot,
        env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', DATABASE_DRIVER: '', ...database.env },
      });
      expect(stderr).toMatch(/^Finishing a bulk load of listings that stopped half way, in the .+…$/m);
      expect(stderr).toMatch(/^finished the load: \d+ indexes and the derived data built \(\d+\.\d s\)$/m);
      expect(await stateOf()).toEqual({ ...before, listings: 25_000, kept: 25_000 });
    } finally {
      await database.drop();
    }
  }, 240_000);
});

describe('a command started while npm run seed builds its indexes', () => {
  /** Runs a script of the project on `env`, answering its exit code and what it printed, whether it failed or not. */
  function runScript(script: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: projectRoot, env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', DATABASE_DRIVER: '', ...env } });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
  }

  it('leaves the load to the seed, which finishes it whole', async () => {
    const database = await commandDatabase();
    try {
      let other: Promise<{ code: number | null; stderr: string }> | undefined;
      const seeded = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--listings', '25000', '--agents', '2'], {
          cwd: projectRoot,
          env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', DATABASE_DRIVER: '', ...database.env },
        });
        let printed = '';
        child.stderr.on('data', (chunk: Buffer) => {
          printed += chunk.toString();
          // The listings are loaded and their indexes being built: the load is unfinished, and its own.
          if (other === undefined && /^analyzed the loaded listings for the planner/m.test(printed)) other = runScript('scripts/migrate.ts', database.env);
        });
        child.on('error', reject);
        child.on('close', resolve);
      });
      expect(seeded).toBe(0);
      expect(other).toBeDefined();
      const started = await other!;
      expect(started.stderr).not.toMatch(/Finishing a bulk load/);
      // On PostgreSQL the command runs beside the seed; the embedded database is one process's alone.
      if (testPostgresUrl) expect(started.code).toBe(0);
      else expect(started.stderr).toMatch(/is in use by process \d+/);
      const db = await openRawDatabase({ env: database.env, dataDir: database.env.DATA_DIR ?? '', drop: database.drop });
      try {
        const [state] = await db.query<{ listings: number; kept: number; unfinished: number; indexes: number; disabled: number }>(
          `select (select count(*)::int from listings) as listings, (select coalesce(sum(listings), 0)::int from listing_totals) as kept,
            (select count(*)::int from unfinished_bulk_loads) as unfinished, (select count(*)::int from pg_indexes where tablename = 'listings') as indexes,
            (select count(*)::int from pg_trigger where tgrelid = 'listings'::regclass and tgenabled = 'D') as disabled`,
        );
        expect(state).toMatchObject({ listings: 25_000, kept: 25_000, unfinished: 0, disabled: 0 });
        expect(state!.indexes).toBeGreaterThan(10);
      } finally {
        await db.close();
      }
    } finally {
      await database.drop();
    }
  }, 240_000);
});
