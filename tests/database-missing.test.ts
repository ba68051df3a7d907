import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_PREFIX, makeTempDir, testPostgresUrl, uniqueName, withDatabase } from './support/databases.js';
import { startMissingDatabaseServer } from './support/missing-database-server.js';
import { useTestServer } from './support/test-server.js';

/**
 * The server lacks the database DATABASE_URL names: this run's PostgreSQL asked for a database
 * never created, or, on the embedded database, a loopback server that answers as PostgreSQL does.
 */
let databaseUrl: URL;
let closeLoopback: (() => Promise<void>) | undefined;
beforeAll(async () => {
  if (testPostgresUrl) {
    databaseUrl = new URL(withDatabase(testPostgresUrl, uniqueName(`${DATABASE_PREFIX}absent_`)));
  } else {
    const loopback = await startMissingDatabaseServer();
    closeLoopback = loopback.close;
    databaseUrl = new URL(`postgres://postgres@127.0.0.1:${loopback.port}/shop_absent`);
  }
  databaseUrl.password = 'password-in-the-url';
});
afterAll(() => closeLoopback?.());

const server = useTestServer({}, async () => {
  const dataDir = makeTempDir('data');
  return { env: { DATABASE_URL: databaseUrl.toString(), DATABASE_DRIVER: 'pg', DATA_DIR: dataDir }, dataDir, drop: async () => undefined };
});

describe('a database that does not exist on its server', () => {
  it('answers a route that reads it with 503 in the envelope naming DATABASE_URL, while liveness answers', async () => {
    const response = await server.api.get('/api/public/listings');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(response.body).toEqual({ success: false, code: 'DEPENDENCY_UNAVAILABLE', error: 'Service unavailable: the database that DATABASE_URL names does not exist' });
    expect((await server.api.get('/api/health')).status).toBe(200);
  });

  it('answers readiness 503 saying the database DATABASE_URL names does not exist, without the server, user or password', async () => {
    const response = await server.api.get('/api/health/ready');
    const name = databaseUrl.pathname.slice(1);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(response.body).toEqual({
      success: false,
      code: 'DEPENDENCY_UNAVAILABLE',
      error: 'Service unavailable',
      details: [{ field: 'database', message: `The database "${name}" that DATABASE_URL names does not exist on its server: create it, or fix DATABASE_URL.` }],
    });
    for (const part of [databaseUrl.password, databaseUrl.username, databaseUrl.hostname]) expect(JSON.stringify(response.body)).not.toContain(part);
  });
});
