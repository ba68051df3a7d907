import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import { readConfig } from '../../lib/config.js';
import { runMigrations } from '../../lib/db/migrate.js';
import { adminQuery, DATABASE_PREFIX, makeTempDir, testPostgresUrl, uniqueName, withDatabase } from './databases.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDataDir: string;
    templateDatabase: string;
    runId: string;
  }
}

/** Migrates one template database per run; each test file then starts from a copy of it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runId = uniqueName('');
  project.provide('runId', runId);
  if (testPostgresUrl) {
    const template = `${DATABASE_PREFIX}${runId}_template`;
    await adminQuery(`CREATE DATABASE "${template}"`);
    await runMigrations(readConfig({ DATABASE_URL: withDatabase(testPostgresUrl, template), DATABASE_DRIVER: 'pg' }));
    project.provide('templateDatabase', template);
    project.provide('templateDataDir', '');
    return async () => {
      const client = await import('pg');
      const admin = new client.default.Client({ connectionString: testPostgresUrl });
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>(
        `select datname from pg_database where starts_with(datname, $1) order by datname = $2`,
        [`${DATABASE_PREFIX}${runId}_`, template],
      );
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      await admin.end();
    };
  }
  const dataDir = makeTempDir('template');
  await runMigrations(readConfig({ DATA_DIR: dataDir }));
  project.provide('templateDataDir', dataDir);
  project.provide('templateDatabase', '');
  return async () => fs.rmSync(dataDir, { recursive: true, force: true });
}
