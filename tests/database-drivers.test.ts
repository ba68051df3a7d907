import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { readConfig } from '../lib/config.js';
import { connect } from '../lib/db/client.js';
import { lockDataDir } from '../lib/db/embedded.js';
import { runMigrations } from '../lib/db/migrate.js';
import { users } from '../lib/db/schema.js';
import { adminQuery, DATABASE_PREFIX, makeTempDir, testPostgresUrl, uniqueName, withDatabase } from './support/databases.js';
import { startNeonWsProxy } from './support/neon-ws-proxy.js';

/** The embedded driver always; node-postgres and Neon's driver when the run has a Postgres server. */
type DriverCase = { driver: string; env: () => Promise<Record<string, string>> };

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function freshPostgresDatabase(): Promise<string> {
  const database = uniqueName(`${DATABASE_PREFIX}${inject('runId')}_`);
  await adminQuery(`CREATE DATABASE "${database}" TEMPLATE "${inject('templateDatabase')}"`);
  cleanups.push(() => adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
  return withDatabase(testPostgresUrl!, database);
}

const cases: DriverCase[] = [
  {
    driver: 'pglite',
    env: async () => {
      const dataDir = makeTempDir('driver');
      const template = inject('templateDataDir');
      if (template) fs.cpSync(template, dataDir, { recursive: true });
      else await runMigrations(readConfig({ DATA_DIR: dataDir }));
      cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
      return { DATA_DIR: dataDir };
    },
  },
];
if (testPostgresUrl) {
  cases.push(
    { driver: 'pg', env: async () => ({ DATABASE_URL: await freshPostgresDatabase(), DATABASE_DRIVER: 'pg' }) },
    {
      driver: 'neon',
      env: async () => {
        const url = new URL(testPostgresUrl!);
        const proxy = await startNeonWsProxy({ host: url.hostname, port: Number(url.port || 5432) });
        cleanups.push(proxy.close);
        return { DATABASE_URL: await freshPostgresDatabase(), DATABASE_DRIVER: 'neon', NEON_WS_PROXY: proxy.address };
      },
    },
  );
}

describe.each(cases)('the $driver driver', ({ driver, env }) => {
  it('commits a transaction and rolls back a failed one, leaving no half-made row', async () => {
    const environment = await env();
    if (environment.NEON_WS_PROXY) process.env.NEON_WS_PROXY = environment.NEON_WS_PROXY;
    const cfg = readConfig(environment);
    expect(cfg.databaseDriver).toBe(driver);
    const connection = await connect(cfg);
    try {
      const { db } = connection;
      await db.transaction(async (tx) => {
        await tx.insert(users).values({ email: `kept-${driver}@example.com`, password: 'x', name: 'Kept' });
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.insert(users).values({ email: `lost-${driver}@example.com`, password: 'x', name: 'Lost' });
          await tx.insert(users).values({ email: `kept-${driver}@example.com`, password: 'x', name: 'Duplicate' });
        }),
      ).rejects.toThrow();
      const emails = await db.select({ email: users.email }).from(users).where(sql`${users.email} like ${`%-${driver}@example.com`}`);
      expect(emails.map((row) => row.email)).toEqual([`kept-${driver}@example.com`]);
      const [kept] = await db.select({ name: users.name }).from(users).where(eq(users.email, `kept-${driver}@example.com`));
      expect(kept?.name).toBe('Kept');
    } finally {
      await connection.close();
    }
  });
});

describe('the embedded database folder', () => {
  it('refuses a second owner while the first holds the lock, and frees it on release', () => {
    const dataDir = makeTempDir('lock');
    fs.writeFileSync(path.join(dataDir, 'server.lock'), String(process.ppid));
    expect(() => lockDataDir(dataDir)).toThrow(/in use by process/);
    fs.rmSync(path.join(dataDir, 'server.lock'));
    const release = lockDataDir(dataDir);
    expect(fs.readFileSync(path.join(dataDir, 'server.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes over a lock left by a process that is gone', () => {
    const dataDir = makeTempDir('stale');
    fs.writeFileSync(path.join(dataDir, 'server.lock'), '2147483646');
    const release = lockDataDir(dataDir);
    expect(fs.readFileSync(path.join(dataDir, 'server.lock'), 'utf8')).toBe(String(process.pid));
    release();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
