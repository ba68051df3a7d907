import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adoptDatabase } from '../lib/adoption/adopt.js';
import { readConfig } from '../lib/config.js';
import { ORIGINAL_ADMIN_EMAIL, ORIGINAL_PASSWORD } from '../lib/seeding/original-catalogue.js';
import { ORIGINAL_MIGRATION_NAMES } from '../lib/seeding/original-schema-build.js';
import { adminQuery, DATABASE_PREFIX, makeTempDir, testPostgresUrl, uniqueName, withDatabase } from './support/databases.js';
import { createEmptyDatabase, openRawDatabase } from './support/original-database.js';
import type { PreparedDatabase } from './support/test-server.js';

const run = promisify(execFile);
const projectRoot = path.resolve(import.meta.dirname, '..');
const LISTINGS = 2_500;
const AGENTS = 4;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run original:generate` (its script, under tsx) as an operator would. */
async function generate(env: Record<string, string>, args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/original-generate.ts', ...args], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

/**
 * The database the command builds: on PostgreSQL one it creates itself (named by --database-url,
 * not there before), on the embedded driver a new folder's.
 */
let database: PreparedDatabase;
let target: { env: Record<string, string>; args: string[] };

beforeAll(async () => {
  if (testPostgresUrl) {
    const name = uniqueName(`${DATABASE_PREFIX}${inject('runId')}_`);
    const url = withDatabase(testPostgresUrl, name);
    const dataDir = makeTempDir('data');
    database = { env: { DATABASE_URL: url, DATABASE_DRIVER: 'pg', DATA_DIR: dataDir }, dataDir, drop: async () => {
        await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
    target = { env: { DATA_DIR: dataDir }, args: ['--database-url', url] };
  } else {
    database = await createEmptyDatabase();
    target = { env: database.env, args: [] };
  }
}, 120_000);
afterAll(() => database.drop());

async function count(table: string, where = 'true'): Promise<number> {
  const db = await openRawDatabase(database);
  try {
    const [row] = await db.query<{ count: number }>(`select count(*)::int as count from "${table}" where ${where}`);
    return row!.count;
  } finally {
    await db.close();
  }
}

describe('npm run original:generate', () => {
  it("builds the original's schema with a realistic shop, which db:adopt takes over", { timeout: 600_000 }, async () => {
    const outcome = await generate(target.env, [...target.args, '--listings', String(LISTINGS), '--agents', String(AGENTS), '--seed', '5']);
    expect(outcome).toMatchObject({ code: 0, stderr: expect.stringContaining(`${LISTINGS.toLocaleString('en-US')}/${LISTINGS.toLocaleString('en-US')} listings`) });
    expect(outcome.stdout).toContain(`listings: ${LISTINGS.toLocaleString('en-US')}`);

    const db = await openRawDatabase(database);
    try {
      expect((await db.query('select migration_name from "_prisma_migrations" order by migration_name')).map((row) => row.migration_name)).toEqual(ORIGINAL_MIGRATION_NAMES);
      const [shop] = await db.query(`select
        (select count(*)::int from users where role = 'SUPER_ADMIN') as admins,
        (select count(*)::int from users where role = 'AGENT') as agents,
        (select count(*)::int from users where "telegramConnected") as "onTheBot",
        (select count(*)::int from categories) as categories,
        (select count(*)::int from listings) as listings,
        (select count(distinct status)::int from listings) as statuses,
        (select count(*)::int from listings where title ~ '[ሀ-ፚ]') as amharic,
        (select count(*)::int from listings where price % 100 <> 0) as "notRound",
        (select count(*)::int from listings where images[1] like 'https://%') as hosted,
        (select count(*)::int from listings where images[1] like '/uploads/%') as "localPhotos",
        (select count(*)::int from syndication_logs where status = 'SUCCESS' and "messageId" is not null) as posted,
        (select count(*)::int from agent_codes where "isUsed") as "usedCodes",
        (select count(*)::int from settings) as settings`);
      expect(shop).toMatchObject({ admins: 2, agents: AGENTS, categories: 5, listings: LISTINGS, statuses: 4, usedCodes: AGENTS, settings: 8 });
      for (const share of ['onTheBot', 'amharic', 'notRound', 'hosted', 'localPhotos', 'posted'] as const) expect({ share, some: shop[share] > 0 }).toEqual({ share, some: true });
      const [owner] = await db.query(`select password from users where lower(email) = $1`, [ORIGINAL_ADMIN_EMAIL]);
      expect(await bcrypt.compare(ORIGINAL_PASSWORD, owner.password)).toBe(true);
    } finally {
      await db.close();
    }

    const adopted = await adoptDatabase(readConfig(database.env), { dryRun: false, progress: () => undefined });
    expect(adopted.kind).toBe('adopted');
    expect(adopted.kind === 'adopted' && adopted.counts.find((entry) => entry.table === 'listings')).toEqual({ table: 'listings', rows: LISTINGS });
  });

  it('refuses a database that holds tables already, and changes nothing', { timeout: 300_000 }, async () => {
    const outcome = await generate(target.env, [...target.args, '--listings', '10']);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/^Refused: .* already holds tables \(.*listings.*\); give an empty database\.$/m);
    expect(await count('listings')).toBe(LISTINGS);
  });

  it('says how to use it when the number of listings is missing or wrong', { timeout: 120_000 }, async () => {
    for (const args of [[], ['--listings', 'many'], ['--listings', '10', '--agents', '0']]) {
      const outcome = await generate({}, args);
      expect({ args, code: outcome.code }).toEqual({ args, code: 2 });
      expect(outcome.stderr).toContain('Usage: npm run original:generate -- --listings N');
    }
  });
});
