import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, inject } from 'vitest';
import { closeDb, getDb, type Database } from '../../lib/db/client.js';
import { settleDeferredWork } from '../../lib/http/deferred-work.js';
import { createLocalServer } from '../../lib/local-server/server.js';
import { servedContract } from './answer-contract.js';
import { apiClient, type ApiClient } from './http.js';
import { adminQuery, DATABASE_PREFIX, makeTempDir, testPostgresUrl, uniqueName, withDatabase } from './databases.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface TestServer {
  baseUrl: string;
  db: Database;
  uploadDir: string;
  dataDir: string;
  /** How many requests the server has taken so far, answered or not. */
  requestsTaken: () => number;
  close: () => Promise<void>;
}

/** A test file's database: the settings that point at it, its folder, and how to drop it. */
export interface PreparedDatabase {
  env: Record<string, string>;
  dataDir: string;
  drop: () => Promise<void>;
}

/** A fresh copy of the migrated template database. */
export async function prepareTestDatabase(): Promise<PreparedDatabase> {
  const dataDir = makeTempDir('data');
  if (testPostgresUrl) {
    const database = uniqueName(`${DATABASE_PREFIX}${inject('runId')}_`);
    await adminQuery(`CREATE DATABASE "${database}" TEMPLATE "${inject('templateDatabase')}"`);
    return {
      env: { DATABASE_URL: withDatabase(testPostgresUrl, database), DATABASE_DRIVER: 'pg', DATA_DIR: dataDir },
      dataDir,
      drop: () => adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`),
    };
  }
  fs.cpSync(inject('templateDataDir'), dataDir, { recursive: true });
  fs.rmSync(path.join(dataDir, 'server.lock'), { force: true });
  return { env: { DATA_DIR: dataDir }, dataDir, drop: async () => undefined };
}

/**
 * Starts the local server in this test file's process on an ephemeral port, over a fresh copy of
 * the migrated template database, or the database `prepare` makes. `env` adds configuration
 * (outside services' loopback URLs). Configuration is read once per process, so a test file runs one server.
 */
export async function startTestServer(env: Record<string, string> = {}, prepare: () => Promise<PreparedDatabase> = prepareTestDatabase): Promise<TestServer> {
  const database = await prepare();
  const uploadDir = makeTempDir('uploads');
  Object.assign(process.env, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    BCRYPT_ROUNDS: '4',
    UPLOAD_DIR: uploadDir,
    STORAGE_PROVIDER: 'local',
    ...database.env,
    ...env,
  });
  const server = createLocalServer({ projectRoot });
  let requestsTaken = 0;
  server.on('request', () => (requestsTaken += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  process.env.API_BASE_URL ??= baseUrl;
  // The document every answer is checked against is built now, before the tests, not in the middle of their first burst of requests.
  await servedContract(baseUrl);
  const db = await getDb();
  return {
    baseUrl,
    db,
    uploadDir,
    dataDir: database.dataDir,
    requestsTaken: () => requestsTaken,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await settleDeferredWork();
      await closeDb();
      await database.drop();
      fs.rmSync(uploadDir, { recursive: true, force: true });
      fs.rmSync(database.dataDir, { recursive: true, force: true });
    },
  };
}

/** A test file's server, started before its tests and closed after them, with a client for it. */
export interface TestServerHandle extends TestServer {
  api: ApiClient;
}

/**
 * Registers the file's server: started in a beforeAll and closed in an afterAll, both running in
 * the order of registration (after hooks in reverse). `env` may be a function, read when the
 * server starts, for configuration that points at loopback services started by earlier hooks.
 * Its fields may be read from hooks and tests. `prepare` makes the database it serves, instead of
 * a copy of the migrated template.
 */
export function useTestServer(
  env: Record<string, string> | (() => Record<string, string>) = {},
  prepare?: () => Promise<PreparedDatabase>,
): TestServerHandle {
  let started: TestServer | undefined;
  const current = (): TestServer => {
    if (!started) throw new Error('The test server is started in beforeAll: use it from hooks and tests');
    return started;
  };
  beforeAll(async () => {
    started = await startTestServer(typeof env === 'function' ? env() : env, prepare);
  });
  afterAll(() => started?.close());
  return {
    get baseUrl() {
      return current().baseUrl;
    },
    get db() {
      return current().db;
    },
    get uploadDir() {
      return current().uploadDir;
    },
    get dataDir() {
      return current().dataDir;
    },
    requestsTaken: () => current().requestsTaken(),
    close: () => current().close(),
    api: apiClient(() => current().baseUrl),
  };
}
