import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** Where a test run keeps its databases: PGlite folders by default, or a Postgres server. */
export const testPostgresUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

export const DATABASE_PREFIX = 'mkt_test_';

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: testPostgresUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export function uniqueName(prefix: string): string {
  return `${prefix}${crypto.randomBytes(5).toString('hex')}`;
}

export function makeTempDir(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `mkt-${label}-`));
}
