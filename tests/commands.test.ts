import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SETTINGS as SERVICE_SETTINGS } from '../lib/config.js';
import { lockDataDir } from '../lib/db/embedded.js';
import { adminQuery, DATABASE_PREFIX, makeTempDir, testPostgresUrl, uniqueName, withDatabase } from './support/databases.js';
import { startMissingDatabaseServer } from './support/missing-database-server.js';
import { prepareTestDatabase } from './support/test-server.js';

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

const TSX_LOADER = pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href;

/** The settings a developer's shell may hold, left out so that each command sees only what a test gives it. */
const SETTINGS = /^(DATABASE_|DATA_DIR$|JWT_|ADMIN_|PORT$|NODE_ENV$|LOG_LEVEL$|UPLOAD_DIR$|STORAGE_|CLOUDINARY_|VERCEL|CRON_)/;

/** Runs a project command as npm runs it (tsx), from `cwd` (the project root unless given). */
function startCommand(script: string, args: string[], env: Record<string, string>, cwd = path.resolve('.')) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !SETTINGS.test(name)));
  const child = spawn(process.execPath, ['--import', TSX_LOADER, path.resolve(script), ...args], {
    cwd,
    env: { ...inherited, NODE_ENV: 'test', BCRYPT_ROUNDS: '4', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const outcome: Outcome = { code: null, stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (outcome.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (outcome.stderr += chunk.toString()));
  const ended = new Promise<Outcome>((resolve) => child.once('close', (code) => resolve({ ...outcome, code })));
  return { child, outcome, ended };
}

function runCommand(script: string, args: string[], env: Record<string, string>, cwd?: string): Promise<Outcome> {
  return startCommand(script, args, env, cwd).ended;
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function tempDir(label: string): string {
  const dir = makeTempDir(label);
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An embedded database folder held by this process, as a running server holds it. */
function lockedFolder(label: string): string {
  const dir = tempDir(label);
  cleanups.push(lockDataDir(dir));
  return dir;
}

/** A port nothing listens on now, for a server of its own (PORT=0 means the default port, 5000, which another program may hold). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function migratedDatabase(): Promise<Record<string, string>> {
  const database = await prepareTestDatabase();
  cleanups.push(async () => {
    await database.drop();
    fs.rmSync(database.dataDir, { recursive: true, force: true });
  });
  return { ...database.env, UPLOAD_DIR: tempDir('uploads'), STORAGE_PROVIDER: 'local' };
}

describe('a failure is one line that says what to do', () => {
  it('npm start on a taken port exits non-zero with one line naming the port and how to choose another, and no stack', { timeout: 120_000 }, async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    cleanups.push(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const { port } = taken.address() as net.AddressInfo;
    const result = await runCommand('scripts/serve.ts', [], { ...(await migratedDatabase()), PORT: String(port), LOG_LEVEL: 'silent' });
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([`Port ${port} is already in use: stop the program using it, or choose another port (PORT=${port + 1} npm start, or PORT in .env).`]);
    expect(result.stdout).not.toContain('Marketplace Listing API on');
  });

  it('npm run sweep on an embedded database a server holds exits non-zero with one line, as seed:demo does', { timeout: 120_000 }, async () => {
    const dataDir = lockedFolder('locked');
    const expected = `The embedded database in ${dataDir} is in use by process ${process.pid}. Stop that process first, or set DATA_DIR to another folder.`;
    for (const script of ['scripts/sweep.ts', 'scripts/seed-demo.ts']) {
      const result = await runCommand(script, [], { DATA_DIR: dataDir, LOG_LEVEL: 'info' });
      expect(result.code, script).toBe(1);
      expect(lines(result.stderr), script).toEqual([expected]);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    }
  });

  it('puts the stack of a failure in the debug log, beside the one line', { timeout: 120_000 }, async () => {
    const dataDir = lockedFolder('locked-debug');
    const result = await runCommand('scripts/sweep.ts', [], { DATA_DIR: dataDir, LOG_LEVEL: 'debug' });
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([expect.stringContaining(`The embedded database in ${dataDir} is in use`)]);
    const debug = lines(result.stdout).map((line) => JSON.parse(line) as { level: string; msg: string; error?: { stack?: string } });
    expect(debug.find((entry) => entry.msg === 'failure details')).toMatchObject({ level: 'debug', error: { stack: expect.stringContaining('lockDataDir') } });
  });

  it('npm start refuses a missing production setting in one line that says where to set it', { timeout: 120_000 }, async () => {
    const result = await runCommand('scripts/serve.ts', [], { NODE_ENV: 'production', DATA_DIR: tempDir('production'), PORT: '0' });
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      'Refusing to start: JWT_SECRET must be set to at least 32 bytes in production (set it in .env or the environment).',
    ]);
  });
});

describe('a database that does not exist on its server', () => {
  /** A server that lacks the database: the loopback one, and this run's PostgreSQL when it has one. */
  const servers = [
    { label: 'a server', url: async () => `postgres://postgres@127.0.0.1:${await missingDatabaseServer()}/shop_preview` },
    ...(testPostgresUrl ? [{ label: "this run's PostgreSQL", url: async () => withDatabase(testPostgresUrl!, uniqueName(`${DATABASE_PREFIX}absent_`)) }] : []),
  ];

  async function missingDatabaseServer(): Promise<number> {
    const server = await startMissingDatabaseServer();
    cleanups.push(server.close);
    return server.port;
  }

  it.each(servers)('on $label: db:migrate exits non-zero with one line naming DATABASE_URL and the createdb line that makes it', { timeout: 120_000 }, async ({ url }) => {
    const databaseUrl = new URL(await url());
    const name = databaseUrl.pathname.slice(1);
    const result = await runCommand('scripts/migrate.ts', [], { DATABASE_URL: databaseUrl.toString(), LOG_LEVEL: 'silent' });
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      `The database "${name}" that DATABASE_URL names does not exist on its server: create it (createdb -h ${databaseUrl.hostname} -p ${databaseUrl.port} -U postgres ${name}), or fix DATABASE_URL.`,
    ]);
  });
});

describe('.env in the folder a command runs from', () => {
  it('is read by the commands, and a variable set in the environment wins over it', { timeout: 120_000 }, async () => {
    const project = tempDir('project');
    const fromFile = lockedFolder('from-file');
    const fromEnvironment = lockedFolder('from-environment');
    fs.writeFileSync(path.join(project, '.env'), `# the embedded database of this checkout\nDATA_DIR=${fromFile}\nLOG_LEVEL=silent\n`);
    const readFromFile = await runCommand('scripts/sweep.ts', [], {}, project);
    expect(readFromFile.code).toBe(1);
    expect(readFromFile.stderr).toContain(`The embedded database in ${fromFile} is in use`);
    const environmentWins = await runCommand('scripts/sweep.ts', [], { DATA_DIR: fromEnvironment }, project);
    expect(environmentWins.code).toBe(1);
    expect(environmentWins.stderr).toContain(`The embedded database in ${fromEnvironment} is in use`);
  });
});

describe('a misspelt .env key', () => {
  it('is named at start with the setting it resembles; other keys, and settings spelt right, pass in silence', { timeout: 120_000 }, async () => {
    const project = tempDir('typos');
    const dataDir = lockedFolder('typos-data');
    fs.writeFileSync(
      path.join(project, '.env'),
      [`DATA_DIR=${dataDir}`, 'DATABSE_URL=postgres://127.0.0.1:5432/shop', 'jwt_secret=lower-case', 'LOG_LEVL=silent', 'PORTT=5001', 'HOST=0.0.0.0', 'MY_OWN_THING=1', 'LOG_LEVEL=silent'].join('\n'),
    );
    const result = await runCommand('scripts/sweep.ts', [], {}, project);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      '.env: DATABSE_URL: did you mean DATABASE_URL? (nothing reads DATABSE_URL)',
      '.env: LOG_LEVL: did you mean LOG_LEVEL? (nothing reads LOG_LEVL)',
      '.env: PORTT: did you mean PORT? (nothing reads PORTT)',
      '.env: jwt_secret: did you mean JWT_SECRET? (nothing reads jwt_secret)',
      `The embedded database in ${dataDir} is in use by process ${process.pid}. Stop that process first, or set DATA_DIR to another folder.`,
    ]);
  });

  it('is told apart from every variable the service reads: the code and .env.example name only known settings', () => {
    const sources = ['lib', 'api', 'scripts'].flatMap((folder) =>
      fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts')).map((file) => fs.readFileSync(path.join(folder, file), 'utf8')),
    );
    const read = new Set(sources.flatMap((source) => [...source.matchAll(/\benv(?:\.|\[')([A-Z][A-Z0-9_]+)/g)].map((match) => match[1]!)));
    const documented = [...fs.readFileSync('.env.example', 'utf8').matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!);
    expect(read.size).toBeGreaterThan(30);
    expect([...read, ...documented].filter((name) => !SERVICE_SETTINGS.includes(name))).toEqual([]);
  });
});

/** How long README says the first start takes, the time its announcement repeats. */
function readmeFirstStartSeconds(): string {
  const seconds = /first start creates and migrates the embedded database,\s+which takes about (\d+) seconds/.exec(fs.readFileSync('README.md', 'utf8'))?.[1];
  expect(seconds, "README's first-start time").toBeDefined();
  return seconds!;
}

describe('slow steps say what they are doing', () => {
  it('a first migration says it is creating the database and how long that takes, as README says, and a second says nothing', { timeout: 240_000 }, async () => {
    let env: Record<string, string>;
    let announcement: string;
    if (testPostgresUrl) {
      const database = uniqueName(`${DATABASE_PREFIX}first_`);
      await adminQuery(`CREATE DATABASE "${database}"`);
      cleanups.push(() => adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
      const url = new URL(withDatabase(testPostgresUrl, database));
      env = { DATABASE_URL: url.toString(), DATABASE_DRIVER: 'pg' };
      const migrations = (JSON.parse(fs.readFileSync('drizzle/meta/_journal.json', 'utf8')) as { entries: unknown[] }).entries.length;
      announcement = `Applying ${migrations} new migrations to the PostgreSQL at ${url.hostname}:${url.port}/${database}…`;
    } else {
      const dataDir = path.join(tempDir('first-start'), 'data');
      env = { DATA_DIR: dataDir };
      announcement = `Creating and migrating the embedded database in ${dataDir} (first start, about ${readmeFirstStartSeconds()} s)…`;
    }
    const first = await runCommand('scripts/migrate.ts', [], { ...env, LOG_LEVEL: 'silent' });
    expect(first.code, first.stderr).toBe(0);
    expect(lines(first.stderr)).toEqual([announcement, expect.stringMatching(/^Database ready \(\d+\.\d s\)\.$/)]);
    const again = await runCommand('scripts/migrate.ts', [], { ...env, LOG_LEVEL: 'silent' });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
  });

  it('create-admin says it is hashing the password, then creates the administrator', { timeout: 120_000 }, async () => {
    const result = await runCommand('scripts/create-admin.ts', ['--email', 'progress@example.com', '--password', 'long-enough-password'], {
      ...(await migratedDatabase()),
      LOG_LEVEL: 'silent',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stderr)).toEqual(['Hashing the password (about a second)…']);
    expect(result.stdout).toMatch(/^Created administrator progress@example\.com \([0-9a-f-]{36}\)\.\n$/);
  });
});

/** Waits until the server's output holds `text`, or it ends, or a long while passes on a busy machine. */
async function printed(server: ReturnType<typeof startCommand>, text: string): Promise<string[]> {
  for (let waited = 0; !server.outcome.stdout.includes(text) && server.child.exitCode === null && waited < 100_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return lines(server.outcome.stdout);
}

function describedDatabase(env: Record<string, string>): string {
  return env.DATABASE_URL && env.DATABASE_DRIVER !== 'pglite'
    ? `PostgreSQL at ${new URL(env.DATABASE_URL).host}${new URL(env.DATABASE_URL).pathname}`
    : `embedded PostgreSQL in ${env.DATA_DIR}`;
}

async function stop(server: ReturnType<typeof startCommand>): Promise<void> {
  server.child.kill('SIGTERM');
  expect((await server.ended).code).toBe(0);
}

describe('npm start', () => {
  it('prints the address, the reference page, the database and, with no administrator yet, a one-time link that makes the first one', { timeout: 180_000 }, async () => {
    const env = { ...(await migratedDatabase()), PORT: String(await freePort()), LOG_LEVEL: 'silent' };
    const server = startCommand('scripts/serve.ts', [], env);
    cleanups.push(() => void server.child.kill('SIGTERM'));
    const output = await printed(server, 'npm run create-admin');
    const url = /^Marketplace Listing API on (http:\/\/localhost:\d+)$/.exec(output[0] ?? '')?.[1];
    expect(url, server.outcome.stdout + server.outcome.stderr).toBeDefined();
    expect(output).toEqual([
      `Marketplace Listing API on ${url}`,
      `  API reference: ${url}/api/docs`,
      `  Database:      ${describedDatabase(env)}`,
      '  No administrator yet. Make the first one in a browser (the link works once, for an hour):',
      expect.stringMatching(new RegExp(`^    ${url}/setup\\?token=[A-Za-z0-9_-]{43}$`)),
      "  or stop the server and run: npm run create-admin -- --email you@example.com --password 'a-long-password'",
    ]);
    const link = output[4]!.trim();
    expect((await fetch(link)).status).toBe(200);
    const form = new FormData();
    for (const [name, value] of Object.entries({ email: 'first@example.com', name: 'First', password: 'first-password' })) form.append(name, value);
    expect((await fetch(link, { method: 'POST', body: form })).status).toBe(201);
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'first@example.com', password: 'first-password' }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as { data: { user: { role: string } } }).data.user.role).toBe('SUPER_ADMIN');
    expect((await fetch(link)).status).toBe(404);
    await stop(server);

    const again = startCommand('scripts/serve.ts', [], env);
    cleanups.push(() => void again.child.kill('SIGTERM'));
    expect(await printed(again, 'Database:')).toEqual([expect.stringMatching(/^Marketplace Listing API on /), expect.any(String), `  Database:      ${describedDatabase(env)}`]);
    await stop(again);
  });

  it('prints no link on the platform (VERCEL=1): the command and the settings that make an administrator there', { timeout: 120_000 }, async () => {
    const database = await migratedDatabase();
    // The embedded database stands in for the deployment's, which a test run may not have.
    const standIn: Record<string, string> = database.DATABASE_URL ? {} : { DATABASE_URL: 'postgres://deployment.invalid/shop', DATABASE_DRIVER: 'pglite' };
    const env: Record<string, string> = {
      ...database,
      ...standIn,
      VERCEL: '1',
      JWT_SECRET: 'a-deployment-secret-of-at-least-32-bytes',
      CRON_SECRET: 'a-cron-secret',
      PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
    };
    const server = startCommand('scripts/serve.ts', [], env);
    cleanups.push(() => void server.child.kill('SIGTERM'));
    const output = await printed(server, 'start again.');
    expect(output.slice(2), server.outcome.stderr).toEqual([
      `  Database:      ${describedDatabase(env)}`,
      '  No administrator yet. Stop the server (Ctrl+C) and make one:',
      "    npm run create-admin -- --email you@example.com --password 'a-long-password'",
      '  or set ADMIN_EMAIL and ADMIN_PASSWORD in .env and start again.',
    ]);
    expect(server.outcome.stdout).not.toContain('/setup');
    await stop(server);
  });

  it('leaves out the administrator hint once one exists', { timeout: 120_000 }, async () => {
    const env = await migratedDatabase();
    const server = startCommand('scripts/serve.ts', [], {
      ...env,
      PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: 'boot@example.com',
      ADMIN_PASSWORD: 'long-enough-password',
    });
    cleanups.push(() => void server.child.kill('SIGTERM'));
    await printed(server, 'Database:');
    expect(server.outcome.stdout).toContain('  API reference: http://localhost:');
    expect(server.outcome.stdout).not.toContain('No administrator yet');
    expect(server.outcome.stdout).not.toContain('/setup');
    await stop(server);
  });
});
