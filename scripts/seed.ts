import '../lib/cli/project-env.js';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../lib/auth/passwords.js';
import { reportFailure } from '../lib/cli/failure.js';
import { prepareDatabase } from '../lib/cli/prepare-database.js';
import { progressBar } from '../lib/cli/progress.js';
import { config } from '../lib/config.js';
import { connect, type Connection, type Executor } from '../lib/db/client.js';
import { bulkLoadAccess, withDerivedDataSetAside } from '../lib/listings/derived-data.js';
import { ensureDefaultCategories, ensureSeedAgents, insertGeneratedListings } from '../lib/seeding/bulk-listings.js';

/** From this many listings on, the GIN indexes and statistics are rebuilt after the load instead of kept up row by row. */
const LARGE_LOAD = 20_000;

const USAGE = 'Usage: npm run seed -- --listings N [--agents M] [--seed S]   (N up to 1,000,000)';

function readCount(value: string | undefined, name: string, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0 || count > max) {
    console.error(`--${name} must be a whole number from 0 to ${max}.\n${USAGE}`);
    process.exit(2);
  }
  return count;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { listings: { type: 'string' }, agents: { type: 'string' }, seed: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help || values.listings === undefined) {
    console.error(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const total = readCount(values.listings, 'listings', 1_000_000, 0);
  const agentCount = readCount(values.agents, 'agents', 1000, 25);
  const seed = readCount(values.seed, 'seed', 2 ** 31, 42);

  await prepareDatabase(config());
  // Rebuilding the indexes of a million listings takes longer than any request may.
  connection = await connect(config(), undefined, 'maintenance');
  const { db } = connection;
  const agentIds = await ensureSeedAgents(db, agentCount, await hashPassword('seed-agent-password'));
  const categories = await ensureDefaultCategories(db);
  const startedAt = performance.now();
  const interactive = process.stderr.isTTY;
  const load = (transactions: Executor[]) =>
    insertGeneratedListings(transactions, {
      total,
      seed,
      categories,
      agentIds,
      onProgress: (done) => {
        const line = progressBar(done, total, startedAt, 'listings');
        if (interactive) process.stderr.write(`\r${line}${done === total ? '\n' : ''}`);
        else if (done === total || done % 50_000 < 1500) process.stderr.write(`${line}\n`);
      },
    });
  // A large load runs over a connection per core, its indexes and triggers set aside meanwhile: a
  // seed stopped at any point (a kill, a full disk) is finished by the next command or server
  // start, which builds them again. A small one is one transaction, with them in place.
  if (total >= LARGE_LOAD) await withDerivedDataSetAside(db, bulkLoadAccess(config()), load, (line) => console.error(line));
  else await db.transaction((tx) => load([tx]));
  // Index-only reads of the listings' indexes need their pages marked all-visible; the planner, statistics.
  await db.execute(sql`vacuum analyze listings, search_terms`);
  console.error(`Seeded ${total.toLocaleString('en-US')} listings in ${((performance.now() - startedAt) / 1000).toFixed(1)} s.`);
}

let connection: Connection | undefined;

main()
  .catch(reportFailure)
  .finally(() => connection?.close());
