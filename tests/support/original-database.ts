import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';
import { createEmbeddedClient } from '../../lib/db/embedded.js';
import type { SqlSession } from '../../lib/seeding/original-schema-build.js';
import { adminQuery, DATABASE_PREFIX, makeTempDir, testPostgresUrl, uniqueName, withDatabase } from './databases.js';
import type { PreparedDatabase } from './test-server.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A raw connection to a test database, for building it the way another program would and reading its catalog. */
export interface RawDatabase extends SqlSession {
  query<T = any>(text: string, params?: unknown[]): Promise<T[]>;
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
