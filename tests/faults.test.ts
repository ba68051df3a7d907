import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentCodes, listings, notifications, users } from '../lib/db/schema.js';
import { buildListing } from './support/catalog-factories.js';
import { makeTempDir, testPostgresUrl } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { startServerProcess } from './support/server-process.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

/** A TCP proxy that can be stopped (connections cut, port closed) and started again on the same port. */
interface TcpProxy {
  port: number;
  start: () => Promise<void>;
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function tcpProxy(upstream: { host: string; port: number } | undefined): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  return {
    port,
    start: async () => {
      if (server) return;
      if (!upstream) throw new Error('no database server to proxy to');
      const target = upstream;
      server = net.createServer((client) => {
        const remote = net.connect(target.port, target.host);
        track(client);
        track(remote);
        client.pipe(remote).pipe(client);
        client.on('close', () => remote.destroy());
        remote.on('close', () => client.destroy());
      });
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    },
    stop: async () => {
      const current = server;
      server = undefined;
      for (const socket of sockets) socket.destroy();
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
  };
}

/** The answer to a request, or, when the connection is cut instead, how the server process ended. */
async function answerOrExit(request: Promise<{ status: number; body: unknown }>, child: ChildProcess): Promise<{ status: number | string; body: unknown }> {
  try {
    return await request;
  } catch {
    const ended = child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 2000))]);
    return { status: `no answer (server process exit code ${child.exitCode}, signal ${child.signalCode})`, body: undefined };
  }
}

function tinyPng(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } }).png().toBuffer();
}

function storedFiles(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

const server = useTestServer();
const api = server.api;
const shop = useShop(server);
let proxy: TcpProxy;
let remote: { baseUrl: string; child: ChildProcess };
let remoteApi: ApiClient;
let remoteDataDir: string;

beforeAll(async () => {
  // The second server reaches this file's database only through the proxy (on the embedded
  // database there is no server to reach, so the proxy stays closed: the database is unreachable).
  const database = testPostgresUrl ? new URL(process.env.DATABASE_URL!) : undefined;
  proxy = await tcpProxy(database ? { host: database.hostname, port: Number(database.port || 5432) } : undefined);
  const proxied = database ? new URL(database) : new URL('postgres://postgres@127.0.0.1/unreachable');
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  remoteDataDir = makeTempDir('faults-remote');
  remote = await startServerProcess({
    DATABASE_URL: proxied.toString(),
    DATABASE_DRIVER: 'pg',
    DATA_DIR: remoteDataDir,
    UPLOAD_DIR: path.join(remoteDataDir, 'uploads'),
    API_BASE_URL: 'http://127.0.0.1',
  });
  remoteApi = apiClient(remote.baseUrl);
});

afterAll(async () => {
  remote?.child.kill();
  await proxy?.stop();
  fs.rmSync(remoteDataDir, { recursive: true, force: true });
});

describe('the database unreachable', () => {
  if (testPostgresUrl) {
    it('serves through the proxy while the database answers', async () => {
      await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Seen through the proxy' });
      await proxy.start();
      expect((await remoteApi.get('/api/health/ready')).status).toBe(200);
      const mine = await remoteApi.get('/api/listings', { token: shop.agent.token });
      expect(mine.status).toBe(200);
      expect(mine.body.data.map((item: { title: string }) => item.title)).toContain('Seen through the proxy');
    });
  }

  it('answers 503 Service unavailable where the database is needed, keeps liveness at 200, and keeps running', async () => {
    // Cuts the pooled connections too, when there are any.
    await proxy.stop();
    const ready = await remoteApi.get('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ success: false, code: 'DEPENDENCY_UNAVAILABLE', error: 'Service unavailable' });
    expect(ready.headers.get('retry-after')).toBe('5');

    const needsDatabase = [
      () => remoteApi.get('/api/public/listings'),
      () => remoteApi.get('/api/categories'),
      () => remoteApi.get('/api/settings'),
      () => remoteApi.get('/api/listings', { token: shop.agent.token }),
      () => remoteApi.get('/api/auth/me', { token: shop.admin.token }),
      () => remoteApi.post('/api/auth/login', { json: { email: shop.agent.email, password: shop.agent.password } }),
      () => remoteApi.post(`/api/public/listings/${crypto.randomUUID()}/inquiry`, { json: { method: 'chat' } }),
    ];
    for (const call of needsDatabase) {
      const response = await call();
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ success: false, code: 'DEPENDENCY_UNAVAILABLE', error: 'Service unavailable: the database is unreachable' });
    }

    for (const live of ['/health', '/api/health']) {
      const response = await remoteApi.get(live);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'ok', timestamp: expect.any(String) });
    }
    // Input that needs no database is still judged as before.
    expect((await remoteApi.post('/api/auth/login', { raw: '{', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect(remote.child.exitCode).toBeNull();
    expect(remote.child.signalCode).toBeNull();
  });

  if (testPostgresUrl) {
    it('recovers once the database is back, without a restart', async () => {
      await proxy.start();
      expect((await remoteApi.get('/api/health/ready')).status).toBe(200);
      const created = await remoteApi.post('/api/listings', {
        token: shop.agent.token,
        json: { title: 'Written after the outage', price: 10, categoryId: shop.category.id, attributes: { brand: 'Apple', model: 'X', storage: '64GB' } },
      });
      expect(created.status).toBe(201);
      const [row] = await server.db.select().from(listings).where(eq(listings.id, created.body.data.id));
      expect(row).toMatchObject({ title: 'Written after the outage', agentId: shop.agent.id });
    });
  }
});

/**
 * A write cut off midway: a trigger makes the database fail the second statement of the write's
 * transaction, as a database shutting down under it does (SQLSTATE 57P01). Whatever the first
 * statement wrote must be gone, and so must the files the write had stored.
 */
describe('a write aborted midway', () => {
  async function installTrigger(table: string, action: string): Promise<void> {
    await server.db.execute(
      sql.raw(`create function fail_midway() returns trigger language plpgsql as $$ begin ${action} return new; end $$`),
    );
    await server.db.execute(sql.raw(`create trigger fail_midway before insert on ${table} for each row execute function fail_midway()`));
  }

  const failWhen = (table: string, condition: string) =>
    installTrigger(table, `if ${condition} then raise exception 'terminating connection due to administrator command' using errcode = '57P01'; end if;`);

  afterEach(async () => {
    for (const statement of ['drop trigger if exists fail_midway on notifications', 'drop trigger if exists fail_midway on users', 'drop function if exists fail_midway()']) {
      await server.db.execute(sql.raw(statement));
    }
  });

  async function listingCount(): Promise<number> {
    const [row] = await server.db.select({ total: sql<number>`count(*)::int` }).from(listings);
    return row!.total;
  }

  it('leaves no listing, notification or stored image when a create fails after its row is written', async () => {
    await failWhen('notifications', "exists (select 1 from listings where id::text = new.data->>'listingId' and title = 'Doomed phone')");
    const before = { listings: await listingCount(), files: storedFiles(server.uploadDir) };
    const form = new FormData();
    form.append('title', 'Doomed phone');
    form.append('price', '120');
    form.append('categoryId', shop.category.id);
    form.append('attributes', JSON.stringify({ brand: 'Apple', model: 'X', storage: '64GB' }));
    for (const name of ['front.png', 'back.png']) form.append('images', new Blob([await tinyPng()], { type: 'image/png' }), name);

    const response = await api.post('/api/listings', { token: shop.agent.token, form });

    expect(response.status).toBe(503);
    expect(response.body).toEqual({ success: false, code: 'DEPENDENCY_UNAVAILABLE', error: 'Service unavailable: the database is unreachable' });
    expect(await listingCount()).toBe(before.listings);
    expect(await server.db.select().from(listings).where(eq(listings.title, 'Doomed phone'))).toEqual([]);
    expect(storedFiles(server.uploadDir)).toEqual(before.files);
  });

  it('leaves the listing as it was, with its images, when an update fails after its row is changed', async () => {
    const form = new FormData();
    form.append('title', 'Kept phone');
    form.append('price', '300');
    form.append('categoryId', shop.category.id);
    form.append('stockQuantity', '2');
    form.append('attributes', JSON.stringify({ brand: 'Apple', model: 'X', storage: '64GB' }));
    form.append('images', new Blob([await tinyPng()], { type: 'image/png' }), 'kept.png');
    const created = await api.post('/api/listings', { token: shop.agent.token, form });
    expect(created.status).toBe(201);
    const [original] = await server.db.select().from(listings).where(eq(listings.id, created.body.data.id));
    const filesBefore = storedFiles(server.uploadDir);
    await failWhen('notifications', `new.data->>'listingId' = '${original!.id}'`);

    const update = new FormData();
    update.append('title', 'Doomed phone, sold');
    update.append('status', 'SOLD');
    update.append('existingImages', JSON.stringify([]));
    update.append('images', new Blob([await tinyPng()], { type: 'image/png' }), 'new.png');
    const response = await api.patch(`/api/listings/${original!.id}`, { token: shop.agent.token, form: update });

    expect(response.status).toBe(503);
    expect(response.body).toEqual({ success: false, code: 'DEPENDENCY_UNAVAILABLE', error: 'Service unavailable: the database is unreachable' });
    const [after] = await server.db.select().from(listings).where(eq(listings.id, original!.id));
    expect(after).toEqual(original);
    expect(storedFiles(server.uploadDir)).toEqual(filesBefore);
    const served = await fetch(`${server.baseUrl}${original!.images[0]}`);
    expect(served.status).toBe(200);
    expect(await server.db.select().from(notifications).where(sql`${notifications.data}->>'listingId' = ${original!.id} and ${notifications.type} <> 'LISTING_CREATED'`)).toEqual([]);
  });

  it("gives a code's use back when a sign-up fails after the use is counted", async () => {
    const issued = await api.post('/api/auth/agent-codes', { token: shop.admin.token, json: { name: 'Invited Agent', maxUses: 2 } });
    expect(issued.status).toBe(201);
    await failWhen('users', "new.email like 'doomed-%'");

    const response = await api.post('/api/auth/register', {
      json: { email: 'doomed-signup@example.com', password: 'a-strong-password', name: 'Doomed', phone: '+15550100', agentCode: issued.body.data.code },
    });

    expect(response.status).toBe(503);
    const [code] = await server.db.select().from(agentCodes).where(eq(agentCodes.id, issued.body.data.id));
    expect(code).toMatchObject({ useCount: 0, isUsed: false, usedById: null });
    expect(await server.db.select().from(users).where(eq(users.email, 'doomed-signup@example.com'))).toEqual([]);
  });
});

/**
 * The database process serving a write killed midway (Postgres only: the embedded database runs
 * inside this process). The write goes to the server in its own process, so that an error the
 * driver raises outside any request would show as that process ending.
 */
if (testPostgresUrl) {
  describe('the database process killed mid-write', () => {
    afterEach(async () => {
      await server.db.execute(sql.raw('drop trigger if exists kill_midway on notifications'));
      await server.db.execute(sql.raw('drop function if exists kill_midway()'));
    });

    it('leaves no listing and no stored image, answers 503, and the server keeps serving', async () => {
      await proxy.start();
      await server.db.execute(
        sql.raw(`create function kill_midway() returns trigger language plpgsql as $$ begin
          if exists (select 1 from listings where id::text = new.data->>'listingId' and title = 'Killed phone') then
            perform pg_terminate_backend(pg_backend_pid());
            -- the backend ends itself; the sleep gives it the moment to act on the signal
            perform pg_sleep(5);
          end if;
          return new; end $$`),
      );
      await server.db.execute(sql.raw('create trigger kill_midway before insert on notifications for each row execute function kill_midway()'));
      const remoteUploads = path.join(remoteDataDir, 'uploads');
      const filesBefore = storedFiles(remoteUploads);
      const form = new FormData();
      form.append('title', 'Killed phone');
      form.append('price', '80');
      form.append('categoryId', shop.category.id);
      form.append('attributes', JSON.stringify({ brand: 'Apple', model: 'X', storage: '64GB' }));
      form.append('images', new Blob([await tinyPng()], { type: 'image/png' }), 'killed.png');

      const response = await answerOrExit(remoteApi.post('/api/listings', { token: shop.agent.token, form }), remote.child);

      expect(await server.db.select().from(listings).where(eq(listings.title, 'Killed phone'))).toEqual([]);
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ success: false, code: 'DEPENDENCY_UNAVAILABLE', error: 'Service unavailable: the database is unreachable' });
      expect(storedFiles(remoteUploads)).toEqual(filesBefore);
      const next = await answerOrExit(remoteApi.get('/api/listings', { token: shop.agent.token }), remote.child);
      expect(next.status).toBe(200);
    });
  });
}
