import { execFile } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { readConfig } from '../lib/config.js';
import { connect } from '../lib/db/client.js';
import { categories, syndicationLogs, users } from '../lib/db/schema.js';
import { makeTempDir } from './support/databases.js';
import { apiClient } from './support/http.js';
import { startLoopbackBotApi, type LoopbackBotApi } from './support/loopback-bot-api.js';
import { startServerProcess } from './support/server-process.js';
import { prepareTestDatabase } from './support/test-server.js';

const BOT_TOKEN = '123456:crash-recovery-token';
const CHANNEL = '@crash_recovery';
const JWT_SECRET = 'crash-recovery-secret-that-is-long-enough-for-hs256';

let bot: LoopbackBotApi;
let database: Awaited<ReturnType<typeof prepareTestDatabase>>;
let env: Record<string, string>;

beforeAll(async () => {
  bot = await startLoopbackBotApi({ token: BOT_TOKEN });
  database = await prepareTestDatabase();
  const uploads = makeTempDir('crash-uploads');
  env = {
    ...database.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET,
    BCRYPT_ROUNDS: '4',
    UPLOAD_DIR: uploads,
    STORAGE_PROVIDER: 'local',
    MESSENGER_API_ROOT: bot.apiRoot,
    MESSENGER_BOT_TOKEN: BOT_TOKEN,
    MESSENGER_CHANNEL_ID: CHANNEL,
    MESSENGER_TIMEOUT_MS: '30000',
  };
});
afterAll(async () => {
  await bot.close();
  await database.drop();
});

/** Opens the database the server processes use, while none of them runs (the embedded one allows one process). */
async function withDatabase<T>(work: (db: Awaited<ReturnType<typeof connect>>['db']) => Promise<T>): Promise<T> {
  const connection = await connect(readConfig(env));
  try {
    return await work(connection.db);
  } finally {
    await connection.close();
  }
}

function sweepOnce(): Promise<number> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', path.resolve('scripts/sweep.ts'), '--pending-older-than', '0'], { env: { ...process.env, ...env } }, (error) =>
      resolve(error ? Number(error.code ?? 1) : 0),
    );
  });
}

describe('a server killed right after answering a create', () => {
  it('leaves the post PENDING, and the next sweep posts it exactly once', async () => {
    const { agent, categoryId } = await withDatabase(async (db) => {
      const [user] = await db.insert(users).values({ email: 'crash@example.com', password: 'x', name: 'Crash Agent', role: 'AGENT' }).returning();
      const [category] = await db.insert(categories).values({ name: 'CRASH_PHONES', displayName: 'Crash Phones', schemaRules: [] }).returning();
      return { agent: user!, categoryId: category!.id };
    });
    const token = await new SignJWT({ email: agent.email, role: agent.role })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(agent.id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(JWT_SECRET));

    // The Bot API never answers while the first server lives: its post is still on the way when it dies.
    bot.hang('sendMessage');
    const first = await startServerProcess(env);
    const created = await apiClient(first.baseUrl).post('/api/listings', { token, json: { title: 'Survivor', price: 5, categoryId } });
    expect(created.status).toBe(201);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;

    const listingId = created.body.data.id as string;
    expect(await withDatabase((db) => db.select().from(syndicationLogs).where(eq(syndicationLogs.listingId, listingId)))).toMatchObject([{ status: 'PENDING' }]);

    bot.reset();
    expect(await sweepOnce()).toBe(0);
    expect(await sweepOnce()).toBe(0);
    expect(bot.callsTo('sendMessage')).toHaveLength(1);
    expect(bot.callsTo('sendMessage')[0]!.text).toContain('Survivor');
    expect(await withDatabase((db) => db.select().from(syndicationLogs).where(eq(syndicationLogs.listingId, listingId)))).toMatchObject([{ status: 'SUCCESS' }]);
  }, 120_000);
});
