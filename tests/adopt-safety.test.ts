import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareOriginalDatabase } from './support/adopted-database.js';
import { createEmptyDatabase, openRawDatabase, runAdoptCli, type RawDatabase } from './support/original-database.js';
import { ORIGINAL } from './support/original-rows.js';
import { rowCounts, schemaSnapshot } from './support/schema-snapshot.js';
import type { PreparedDatabase } from './support/test-server.js';

const databases: PreparedDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
});

/** Runs `work` on a raw connection that is closed afterwards (an embedded database takes one process at a time). */
async function withDatabase<T>(database: PreparedDatabase, work: (db: RawDatabase) => Promise<T>): Promise<T> {
  const db = await openRawDatabase(database);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

const stateOf = (database: PreparedDatabase) => withDatabase(database, async (db) => ({ schema: await schemaSnapshot(db), rows: await rowCounts(db) }));

// Each case starts the adoption command in a child process, which takes a while on a busy machine.
describe('refusals', { timeout: 120_000 }, () => {
  it('refuses an empty database, saying so and creating nothing', async () => {
    const empty = await createEmptyDatabase();
    databases.push(empty);
    const before = await stateOf(empty);
    const run = await runAdoptCli(empty.env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Refused: this database is left as it was, because');
    expect(run.stderr).toContain('it has no tables: there is nothing to adopt (a new database needs only npm run db:migrate)');
    expect(await stateOf(empty)).toEqual(before);
  });

  describe("an original's database with something adoption cannot vouch for", () => {
    let original: PreparedDatabase;
    beforeAll(async () => {
      original = await prepareOriginalDatabase();
      databases.push(original);
    });

    it.each([
      {
        problem: 'an original migration that is not applied',
        make: `DELETE FROM "_prisma_migrations" WHERE migration_name = '20260809000002_remove_city_neighborhood'`,
        undo: `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name) VALUES ('undo', 'x', now(), '20260809000002_remove_city_neighborhood')`,
        reason: "the original's migrations 20260809000002_remove_city_neighborhood are not applied",
      },
      {
        problem: 'a migration it does not know',
        make: `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name) VALUES ('later', 'x', now(), '20261001000000_add_reviews')`,
        undo: `DELETE FROM "_prisma_migrations" WHERE id = 'later'`,
        reason: 'it has migrations this command does not know: 20261001000000_add_reviews',
      },
      {
        problem: 'a table the original does not make',
        make: `CREATE TABLE "sessions" ("sid" text PRIMARY KEY)`,
        undo: `DROP TABLE "sessions"`,
        reason: 'it has tables or views the original service does not make: sessions',
      },
      {
        problem: 'a column the original does not make',
        make: `ALTER TABLE "listings" ADD COLUMN "featured" boolean`,
        undo: `ALTER TABLE "listings" DROP COLUMN "featured"`,
        reason: 'table listings has columns the original service does not make: featured',
      },
      {
        problem: 'an id that is not a UUID',
        make: `INSERT INTO categories (id, name, "displayName", icon, "schemaRules", "updatedAt") VALUES ('cat-001', 'LAPTOPS', 'Laptops', 'laptop', '[]', now())`,
        undo: `DELETE FROM categories WHERE id = 'cat-001'`,
        reason: '1 row(s) of categories have ids that are not UUIDs (cat-001); this service keeps every id and needs UUIDs',
      },
      {
        problem: 'two e-mail addresses that differ only in letter case',
        make: `INSERT INTO users (id, email, password, name, phone, "updatedAt") VALUES ('e0e1e2e3-e4e5-4e6e-8e7e-8e9e0e1e2e3e', 'SELAM@shop.example', 'x', 'Selam', '', now())`,
        undo: `DELETE FROM users WHERE id = 'e0e1e2e3-e4e5-4e6e-8e7e-8e9e0e1e2e3e'`,
        reason: 'accounts SELAM@shop.example, selam@shop.example differ only in letter case or spaces; merge or rename them first',
      },
    ])('refuses $problem, naming it and changing nothing', async ({ make, undo, reason }) => {
      await withDatabase(original, (db) => db.exec(make));
      const before = await stateOf(original);
      const run = await runAdoptCli(original.env);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`  - ${reason}`);
      expect(await stateOf(original)).toEqual(before);
      await withDatabase(original, (db) => db.exec(undo));
    });
  });
});

describe('--dry-run', () => {
  it('prints what adoption would do with the row counts of every table, and changes nothing', async () => {
    const original = await prepareOriginalDatabase();
    databases.push(original);
    const before = await stateOf(original);
    const run = await runAdoptCli(original.env, ['--dry-run']);
    expect(run.code).toBe(0);
    for (const line of [
      "Dry run: nothing is changed. Adoption would convert the original service's database in one transaction:",
      '  users: 2 rows',
      '    - 1 pending reset code, stored in plain text, is dropped',
      '  categories: 1 row',
      '    - 1 category has rules without "required", which become required: false',
      '  listings: 3 rows',
      '    - 1 available or pending listing with stock 0 gets stock 1',
      '  syndication_configs: 1 row',
      '    - 1 config of platform TELEGRAM becomes MESSENGER (the bot token stays masked in every answer)',
      '  syndication_logs: 3 rows',
      '    - 1 entry the original left PENDING becomes FAILED, so it is never posted late',
      '  notifications: 1 row',
      '  agent_codes: 4 rows',
      '    - 2 unused unexpired codes still register an agent',
      '    - 1 code whose creator no longer exists is dropped',
      '  settings: 8 rows',
      "    - 4 keys take the spec's names (whatsappNumber -> chatNumber, telegramHandle -> messengerHandle, facebookUrl -> socialUrl1, instagramUrl -> socialUrl2)",
      '    - 2 other keys are kept and never served (such as tiktokUrl, youtubeUrl, adminTelegramUsername, miniAppUrl)',
    ]) {
      expect(run.stdout.split('\n')).toContain(line);
    }
    expect(run.stdout + run.stderr).not.toContain(ORIGINAL.botToken);
    expect(await stateOf(original)).toEqual(before);
  }, 60_000);
});

describe('an interrupted adoption', () => {
  it("leaves the original untouched, and a later run adopts it", async () => {
    const original = await prepareOriginalDatabase();
    databases.push(original);
    // Enough listings that the copy is still running when the process is killed.
    await withDatabase(original, (db) =>
      db.exec(`INSERT INTO listings (id, title, description, price, images, attributes, "categoryId", "agentId", "stockQuantity", "updatedAt")
        SELECT gen_random_uuid()::text, 'Bulk listing ' || i, '', 100, '{}', '{"brand": "Apple"}', '${ORIGINAL.category.id}', '${ORIGINAL.agent.id}', 1, now()
        FROM generate_series(1, 5000) AS i`),
    );
    const before = await stateOf(original);
    let killed = false;
    const interrupted = await runAdoptCli(original.env, [], (line, kill) => {
      if (line.startsWith('  copied users')) {
        killed = true;
        kill();
      }
    });
    expect(killed).toBe(true);
    expect(interrupted.stdout).not.toContain('Adopted');
    expect(await stateOf(original)).toEqual(before);

    const run = await runAdoptCli(original.env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Adopted: the original service's rows now live in this service's schema.");
    expect(run.stdout).toContain('  listings: 5,003');
    // Two adoptions, each creating a schema and copying 5,000 listings: on a busy machine nearly a minute.
  }, 180_000);
});
