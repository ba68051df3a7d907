import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../lib/config.js';
import { runMigrations } from '../lib/db/migrate.js';
import { prepareAdoptedDatabase } from './support/adopted-database.js';
import { openRawDatabase, runAdoptCli } from './support/original-database.js';
import { rowCounts, schemaSnapshot } from './support/schema-snapshot.js';
import { prepareTestDatabase, type PreparedDatabase } from './support/test-server.js';

/** The migrations in the repository, each of which a migrated or adopted database records. */
const MIGRATIONS = (JSON.parse(readFileSync(new URL('../drizzle/meta/_journal.json', import.meta.url), 'utf8')) as { entries: unknown[] }).entries.length;

type Snapshot = Awaited<ReturnType<typeof schemaSnapshot>>;

/** The original's bot columns, kept in users and never served: the one difference allowed. */
const CARRIED_USER_COLUMNS = [
  { column: 'telegramChatId', type: 'text', not_null: false, default: null },
  { column: 'telegramConnected', type: 'boolean', not_null: true, default: 'false' },
  { column: 'telegramFirstName', type: 'text', not_null: false, default: null },
  { column: 'telegramPhotoUrl', type: 'text', not_null: false, default: null },
  { column: 'telegramUsername', type: 'text', not_null: false, default: null },
];

async function snapshotOf(database: PreparedDatabase): Promise<Snapshot> {
  const db = await openRawDatabase(database);
  try {
    return await schemaSnapshot(db);
  } finally {
    await db.close();
  }
}

const keptNames = CARRIED_USER_COLUMNS.map((kept) => kept.column);
const isKeptColumn = (column: { table: string; column: string }) => column.table === 'users' && keptNames.includes(column.column);
/** PostgreSQL 18 lists a column's NOT NULL as a constraint of its own. */
const isKeptConstraint = (constraint: { table: string; name: string }) => constraint.table === 'users' && keptNames.some((name) => constraint.name === `users_${name}_not_null`);

/** An adopted database's schema, told apart from a freshly migrated one only by the carried-over columns. */
function expectFreshSchema(adopted: Snapshot, fresh: Snapshot): void {
  expect({
    ...adopted,
    columns: adopted.columns.filter((column) => !isKeptColumn(column)),
    constraints: adopted.constraints.filter((constraint) => !isKeptConstraint(constraint)),
  }).toEqual(fresh);
}

let fresh: Snapshot;
const databases: PreparedDatabase[] = [];
beforeAll(async () => {
  const template = await prepareTestDatabase();
  databases.push(template);
  fresh = await snapshotOf(template);
});
afterAll(async () => {
  for (const database of databases) await database.drop();
});

describe('an adopted database has the schema of a freshly migrated one', () => {
  let adopted: PreparedDatabase;
  beforeAll(async () => {
    adopted = await prepareAdoptedDatabase();
    databases.push(adopted);
  });

  it('in every column, index, constraint, trigger, enum, function, statistics object and journal entry', async () => {
    const snapshot = await snapshotOf(adopted);
    expect(fresh.journal).toHaveLength(MIGRATIONS);
    expectFreshSchema(snapshot, fresh);
  });

  it("plus the original's bot columns in users, after this schema's own", async () => {
    const snapshot = await snapshotOf(adopted);
    const users = snapshot.columns.filter((column) => column.table === 'users');
    const freshUsers = fresh.columns.filter((column) => column.table === 'users');
    expect(users.slice(freshUsers.length)).toEqual(
      CARRIED_USER_COLUMNS.map((column, index) => expect.objectContaining({ ...column, position: freshUsers.length + index + 1 })),
    );
  });

  it('leaves db:migrate nothing to do', async () => {
    const before = await snapshotOf(adopted);
    await runMigrations(readConfig(adopted.env));
    expect(await snapshotOf(adopted)).toEqual(before);
  });

  it('is recognised by a second db:adopt, which says so and changes nothing', async () => {
    const db = await openRawDatabase(adopted);
    const [before, rowsBefore] = [await schemaSnapshot(db), await rowCounts(db)];
    await db.close();
    const run = await runAdoptCli(adopted.env);
    expect(run.stdout).toContain(`This database already has this service's schema (${MIGRATIONS} of ${MIGRATIONS} migrations recorded): nothing to adopt.`);
    expect(run.code).toBe(0);
    const after = await openRawDatabase(adopted);
    expect([await schemaSnapshot(after), await rowCounts(after)]).toEqual([before, rowsBefore]);
    await after.close();
  });
});

describe('a database whose agent codes, settings and inquiry counter were never made', () => {
  it('is adopted to the same schema, those tables empty', async () => {
    const adopted = await prepareAdoptedDatabase({ outsideMigrations: false });
    databases.push(adopted);
    expectFreshSchema(await snapshotOf(adopted), fresh);
    const db = await openRawDatabase(adopted);
    const counts = await rowCounts(db);
    const [clicks] = await db.query<{ total: string | number }>(`select sum("inquiryClicks") as total from listings`);
    await db.close();
    expect(counts).toMatchObject({ agent_codes: 0, settings: 0, listings: 3, users: 2 });
    expect(Number(clicks!.total)).toBe(0);
  });
});
