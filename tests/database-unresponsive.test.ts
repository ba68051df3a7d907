import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../lib/config.js';
import { connect } from '../lib/db/client.js';
import { databaseErrorToApiError } from '../lib/http/database-errors.js';
import { startNeonWsProxy } from './support/neon-ws-proxy.js';
import { useTestServer } from './support/test-server.js';

/** A database host that accepts every connection and never says a word. */
let silent: net.Server;
let silentPort: number;
const held = new Set<net.Socket>();
beforeAll(async () => {
  silent = net.createServer((socket) => {
    held.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentPort = (silent.address() as net.AddressInfo).port;
});
afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

const silentUrl = () => `postgres://postgres@127.0.0.1:${silentPort}/nothing`;
const server = useTestServer(() => ({ DATABASE_URL: silentUrl(), DATABASE_DRIVER: 'pg', DATABASE_CONNECT_TIMEOUT_MS: '500' }));

describe('a database that accepts connections and never answers', () => {
  it('gives the 503 envelope with Retry-After instead of holding the request, while liveness answers', async () => {
    const response = await server.api.get('/api/public/listings');
    expect(response.status).toBe(503);
    expect(response.body.success).toBe(false);
    expect(response.headers.get('retry-after')).toBe('5');
    expect((await server.api.get('/api/health')).status).toBe(200);
  });

  it("fails a query through Neon's driver the same way, once its connection wait is over", async () => {
    const proxy = await startNeonWsProxy({ host: '127.0.0.1', port: silentPort });
    process.env.NEON_WS_PROXY = proxy.address;
    const connection = await connect(
      readConfig({ DATABASE_URL: silentUrl(), DATABASE_DRIVER: 'neon', NEON_WS_PROXY: proxy.address, DATABASE_CONNECT_TIMEOUT_MS: '500' }),
    );
    try {
      const failure = await connection.db.execute(sql`select 1`).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(databaseErrorToApiError(failure)).toMatchObject({ status: 503 });
    } finally {
      delete process.env.NEON_WS_PROXY;
      await connection.close().catch(() => undefined);
      await proxy.close();
    }
  });

  it('answers 503 when the database cancels a statement that ran past the statement time limit', () => {
    const cancelled = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    expect(databaseErrorToApiError(cancelled)).toMatchObject({ status: 503, message: 'Service unavailable: the database took too long to answer, please try again' });
  });
});
