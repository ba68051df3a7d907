import { readConfig } from '../../lib/config.js';
import { adoptDatabase } from '../../lib/adoption/adopt.js';
import { buildOriginalSchema, type OriginalSchemaOptions } from '../../lib/seeding/original-schema-build.js';
import { createEmptyDatabase, openRawDatabase } from './original-database.js';
import { insertOriginalRows } from './original-rows.js';
import type { PreparedDatabase } from './test-server.js';

/** A database of the original service (its schema, the shop of `ORIGINAL`), not yet adopted. */
export async function prepareOriginalDatabase(options: OriginalSchemaOptions & { rows?: boolean } = {}): Promise<PreparedDatabase> {
  const database = await createEmptyDatabase();
  const db = await openRawDatabase(database);
  try {
    await buildOriginalSchema(db, options);
    if (options.rows ?? true) await insertOriginalRows(db, options.outsideMigrations ?? true);
  } finally {
    await db.close();
  }
  return database;
}

/** The original's database after `db:adopt`, ready for the server. */
export async function prepareAdoptedDatabase(options: OriginalSchemaOptions = {}): Promise<PreparedDatabase> {
  const database = await prepareOriginalDatabase(options);
  const outcome = await adoptDatabase(readConfig(database.env), { dryRun: false, progress: () => undefined });
  if (outcome.kind !== 'adopted') throw new Error(`adoption did not happen: ${JSON.stringify(outcome)}`);
  return database;
}
