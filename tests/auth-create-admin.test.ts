import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { passwordMatches } from '../lib/auth/passwords.js';
import { lockDataDir } from '../lib/db/embedded.js';
import { users } from '../lib/db/schema.js';
import { makeTempDir, testPostgresUrl } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { startTestServer, type TestServer } from './support/test-server.js';

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `scripts/create-admin.ts` as the npm script does, against the database `env` names. */
function createAdmin(args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(DATABASE_|DATA_DIR$|ADMIN_|RESEND_)/.test(name)),
  );
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['tsx', 'scripts/create-admin.ts', ...args],
      { cwd: path.resolve('.'), env: { ...inherited, NODE_ENV: 'test', BCRYPT_ROUNDS: '4', LOG_LEVEL: 'silent', ...env }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function copyOfTemplate(label: string): string {
  const dataDir = makeTempDir(label);
  fs.cpSync(inject('templateDataDir'), dataDir, { recursive: true });
  fs.rmSync(path.join(dataDir, 'server.lock'), { force: true });
  return dataDir;
}

let server: TestServer;
let api: ApiClient;
const cleanups: Array<() => void> = [];
const runs: Record<'alice' | 'bobCreated' | 'bobUpdated', RunResult> = {} as never;

const ALICE = ['--email', 'Alice.Admin@Example.com', '--password', 'alice-password', '--name', 'Alice', '--phone', '+15550001'];
const BOB = ['--email', 'bob.admin@example.com', '--password', 'bob-first-password'];
const BOB_AGAIN = ['--email', 'bob.admin@example.com', '--password', 'bob-second-password', '--name', 'Robert', '--phone', '+15550002'];

async function runAll(env: Record<string, string>): Promise<void> {
  runs.alice = await createAdmin(ALICE, env);
  runs.bobCreated = await createAdmin(BOB, env);
  runs.bobUpdated = await createAdmin(BOB_AGAIN, env);
}

beforeAll(async () => {
  if (testPostgresUrl) {
    // Postgres takes the script while the server runs, on the server's own database.
    server = await startTestServer();
    await runAll({ DATABASE_URL: process.env.DATABASE_URL!, DATABASE_DRIVER: 'pg' });
  } else {
    // The embedded database allows one process: the script runs first, then the server opens the folder.
    const dataDir = copyOfTemplate('create-admin');
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    await runAll({ DATA_DIR: dataDir });
    server = await startTestServer({ DATA_DIR: dataDir });
  }
  api = apiClient(server.baseUrl);
}, 300_000);
afterAll(async () => {
  await server.close();
  for (const cleanup of cleanups) cleanup();
});

async function accountOf(email: string) {
  const [row] = await server.db.select().from(users).where(eq(users.email, email));
  return row;
}

describe('npm run create-admin', () => {
  it('creates an administrator who can then sign in', async () => {
    expect(runs.alice.code).toBe(0);
    const account = await accountOf('alice.admin@example.com');
    expect(account).toMatchObject({ role: 'SUPER_ADMIN', name: 'Alice', phone: '+15550001' });
    expect(runs.alice.stdout).toContain(`Created administrator alice.admin@example.com (${account!.id}).`);
    const login = await api.post('/api/auth/login', { json: { email: 'alice.admin@example.com', password: 'alice-password' } });
    expect(login.status).toBe(200);
    expect(login.body.data.user).toEqual({ id: account!.id, email: 'alice.admin@example.com', name: 'Alice', role: 'SUPER_ADMIN' });
    expect((await api.get('/api/auth/agents', { token: login.body.data.token })).status).toBe(200);
  });

  it('updates an existing administrator\'s password, name and phone when run again', async () => {
    expect(runs.bobCreated.code).toBe(0);
    expect(runs.bobUpdated.code).toBe(0);
    const account = await accountOf('bob.admin@example.com');
    expect(runs.bobCreated.stdout).toContain(`Created administrator bob.admin@example.com (${account!.id}).`);
    expect(runs.bobUpdated.stdout).toContain(`Updated administrator bob.admin@example.com (${account!.id}).`);
    expect(account).toMatchObject({ role: 'SUPER_ADMIN', name: 'Robert', phone: '+15550002' });
    expect(await passwordMatches('bob-second-password', account!.password)).toBe(true);
    expect((await api.post('/api/auth/login', { json: { email: 'bob.admin@example.com', password: 'bob-first-password' } })).status).toBe(401);
  });

  it.each([
    ['no arguments', [], '--email is required'],
    ['a short password', ['--email', 'a@example.com', '--password', 'short'], '--password must be at least 8 characters'],
    ['a malformed e-mail', ['--email', 'nope', '--password', 'long-enough'], '--email must be a valid e-mail address'],
    ['an unknown option', ['--email', 'a@example.com', '--password', 'long-enough', '--role', 'AGENT'], "Unknown option '--role'"],
  ])('refuses %s with the usage and a non-zero exit', async (_label, args, message) => {
    const result = await createAdmin(args);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage: npm run create-admin -- --email <e-mail> --password <password>');
    expect(result.stdout).not.toContain('administrator');
  });

  it('refuses an embedded database folder that a running process holds', async () => {
    // The lock is checked before the database is opened, so an empty folder will do.
    const dataDir = makeTempDir('locked');
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const release = lockDataDir(dataDir);
    try {
      const result = await createAdmin(['--email', 'locked@example.com', '--password', 'long-enough'], { DATA_DIR: dataDir });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(`The embedded database in ${dataDir} is in use by process ${process.pid}. Stop that process first, or set DATA_DIR to another folder.`);
      expect(result.stdout).toBe('');
    } finally {
      release();
    }
  });
});
