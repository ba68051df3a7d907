import '../lib/cli/project-env.js';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { runCommand } from '../lib/cli/failure.js';
import { progressBar } from '../lib/cli/progress.js';
import { config } from '../lib/config.js';
import { openEmbeddedDatabase } from '../lib/db/embedded.js';
import { fillOriginalDatabase, ORIGINAL_ADMIN_EMAIL, ORIGINAL_PASSWORD } from '../lib/seeding/original-catalogue.js';
import { buildOriginalSchema, type SqlSession } from '../lib/seeding/original-schema-build.js';

const USAGE = `Usage: npm run original:generate -- --listings N [--agents M] [--seed S] [--database-url URL]
  Builds the original service's database (its schema, and a shop of N realistic listings) in an empty
  database: --database-url or DATABASE_URL (created when it does not exist), else the embedded
  database in DATA_DIR. N up to 5,000,000; M agents (default 25); the same seed gives the same rows.`;

const MAX_LISTINGS = 5_000_000;
const MAX_AGENTS = 5_000;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function readCount(value: string | undefined, name: string, min: number, max: number, fallback?: number): number {
  if (value === undefined) return fallback ?? fail(`--${name} is required.`);
  const count = Number(value);
  if (!Number.isInteger(count) || count < min || count > max) fail(`--${name} must be a whole number from ${min} to ${max.toLocaleString('en-US')}.`);
  return count;
}

function readArguments() {
  try {
    const { values } = parseArgs({
      options: {
        listings: { type: 'string' },
        agents: { type: 'string' },
        seed: { type: 'string' },
        'database-url': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    return {
      listings: readCount(values.listings, 'listings', 0, MAX_LISTINGS),
      agents: readCount(values.agents, 'agents', 1, MAX_AGENTS, 25),
      seed: readCount(values.seed, 'seed', 0, 2 ** 31, 42),
      databaseUrl: values['database-url'] ?? config().databaseUrl,
    };
  } catch (error) {
    return fail((error as Error).message);
  }
}

interface OpenedDatabase {
  session: SqlSession;
  where: string;
  close: () => Promise<void>;
}

/** Connects to the server's database, creating it first when the server has none of that name. */
async function openServerDatabase(url: string): Promise<OpenedDatabase> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  let client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error;
    const maintenance = new URL(url);
    maintenance.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: maintenance.toString() });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    } finally {
      await admin.end();
    }
    client = new pg.Client({ connectionString: url });
    await client.connect();
  }
  return {
    session: {
      query: async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[],
      exec: async (text) => {
        await client.query(text);
      },
    },
    where: `PostgreSQL at ${target.hostname}${target.port ? `:${target.port}` : ''}/${name}`,
    close: () => client.end(),
  };
}

async function openEmbedded(dataDir: string): Promise<OpenedDatabase> {
  const { client, release } = await openEmbeddedDatabase(dataDir);
  return {
    session: {
      query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
      exec: async (text) => {
        await client.exec(text);
      },
    },
    where: `the embedded database in ${dataDir}`,
    close: async () => {
      await client.close();
      release();
    },
  };
}

async function tableCounts(session: SqlSession): Promise<Array<[string, number]>> {
  const tables = await session.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = 'public' order by tablename`);
  const counts: Array<[string, number]> = [];
  for (const { name } of tables) {
    const [row] = await session.query<{ count: string | number }>(`select count(*) as count from "${name}"`);
    counts.push([name, Number(row?.count ?? 0)]);
  }
  return counts;
}

async function main(): Promise<void> {
  const options = readArguments();
  const database = options.databaseUrl ? await openServerDatabase(options.databaseUrl) : await openEmbedded(config().dataDir);
  try {
    const existing = await tableCounts(database.session);
    if (existing.length > 0) {
      console.error(`Refused: ${database.where} already holds tables (${existing.map(([name]) => name).join(', ')}); give an empty database.`);
      process.exitCode = 1;
      return;
    }
    const startedAt = performance.now();
    console.error(`Building the original service's database in ${database.where}…`);
    await buildOriginalSchema(database.session);
    const interactive = process.stderr.isTTY;
    let reported = 0;
    await fillOriginalDatabase(database.session, {
      ...options,
      onProgress: (done) => {
        const line = progressBar(done, options.listings, startedAt, 'listings');
        if (interactive) process.stderr.write(`\r${line}${done === options.listings ? '\n' : ''}`);
        else if (done === options.listings || done - reported >= 50_000) {
          reported = done;
          process.stderr.write(`${line}\n`);
        }
      },
    });
    await database.session.exec('ANALYZE');
    console.log(`Built the original service's database in ${((performance.now() - startedAt) / 1000).toFixed(1)} s; rows:`);
    for (const [name, count] of await tableCounts(database.session)) console.log(`  ${name}: ${count.toLocaleString('en-US')}`);
    console.log(`Every account's password is ${ORIGINAL_PASSWORD}; the owner signs in as ${ORIGINAL_ADMIN_EMAIL}. Take it over with npm run db:adopt.`);
  } finally {
    await database.close();
  }
}

runCommand(main);
