import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';
import { createEmbeddedClient } from '../../lib/db/embedded.js';
import { adminQuery, DATABASE_PREFIX, makeTempDir, testPostgresUrl, uniqueName, withDatabase } from './databases.js';
import type { PreparedDatabase } from './test-server.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURE = path.join(projectRoot, 'tests/fixtures/original-service');

/** A raw connection to a test database, for building it the way another program would and reading its catalog. */
export interface RawDatabase {
  query<T = any>(text: string, params?: unknown[]): Promise<T[]>;
  /** Several statements at once, as a migration file holds them. */
  exec(text: string): Promise<void>;
  close(): Promise<void>;
}

/** Opens a prepared database directly: its PGlite folder (while nothing else has it open), or its Postgres database. */
export async function openRawDatabase(database: PreparedDatabase): Promise<RawDatabase> {
  if (database.env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await client.connect();
    return {
      query: async (text, params) => (await client.query(text, params)).rows,
      exec: async (text) => {
        await client.query(text);
      },
      close: () => client.end(),
    };
  }
  const client = await createEmbeddedClient(database.dataDir);
  return {
    query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
    exec: async (text) => {
      await client.exec(text);
    },
    close: () => client.close(),
  };
}

/** An empty database of its own for this file: a new PGlite folder, or a new Postgres database dropped after the run. */
export async function createEmptyDatabase(): Promise<PreparedDatabase> {
  const dataDir = makeTempDir('data');
  if (testPostgresUrl) {
    const name = uniqueName(`${DATABASE_PREFIX}${inject('runId')}_`);
    await adminQuery(`CREATE DATABASE "${name}"`);
    return {
      env: { DATABASE_URL: withDatabase(testPostgresUrl, name), DATABASE_DRIVER: 'pg', DATA_DIR: dataDir },
      dataDir,
      drop: async () => {
        await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const client = await createEmbeddedClient(dataDir);
  await client.close();
  return { env: { DATA_DIR: dataDir }, dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

export const ORIGINAL_MIGRATION_NAMES = fs
  .readdirSync(path.join(FIXTURE, 'migrations'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

export interface OriginalSchemaOptions {
  /** Also make what the original's schema file has beyond its migrations (agent_codes, settings, inquiryClicks), as `prisma db push` did. Default true. */
  outsideMigrations?: boolean;
  /** The migrations to apply and record, default all of them. */
  migrations?: readonly string[];
}

/**
 * Builds the original service's schema as its deployments did: each migration file applied in name
 * order and recorded in `_prisma_migrations` as Prisma records it.
 */
export async function buildOriginalSchema(db: RawDatabase, options: OriginalSchemaOptions = {}): Promise<void> {
  await db.exec(`CREATE TABLE "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);
  for (const name of options.migrations ?? ORIGINAL_MIGRATION_NAMES) {
    const migration = fs.readFileSync(path.join(FIXTURE, 'migrations', name, 'migration.sql'), 'utf8');
    await db.exec(migration);
    await db.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
      [crypto.randomUUID(), crypto.createHash('sha256').update(migration).digest('hex'), name],
    );
  }
  if (options.outsideMigrations ?? true) await db.exec(fs.readFileSync(path.join(FIXTURE, 'outside-migrations.sql'), 'utf8'));
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run db:adopt` (its script, under tsx) on a database, as an operator would. `onLine`
 * sees each line of its output as it comes and may kill the process.
 */
export function runAdoptCli(env: Record<string, string>, args: string[] = [], onLine?: (line: string, kill: () => void) => void): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    // One process (tsx as a loader, not its CLI, which runs the script in a child), so a kill ends the run.
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/adopt.ts', ...args], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env },
    });
    let stdout = '';
    let stderr = '';
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine?.(line, () => child.kill('SIGKILL'));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
