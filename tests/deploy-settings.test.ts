import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../lib/auth/passwords.js';
import { missingSettings, readConfig } from '../lib/config.js';
import { users } from '../lib/db/schema.js';
import { discoverRoutes } from '../lib/local-server/route-table.js';
import { buildRoutes } from '../lib/platform/project-routes.js';
import { STATIC_FILES } from '../lib/platform/static-files.js';
import { makeTempDir } from './support/databases.js';
import { startMissingDatabaseServer } from './support/missing-database-server.js';
import { useTestServer } from './support/test-server.js';

interface RunResult {
  code: number;
  output: string;
}

/** A closed loopback port: a command that tried to reach this database would fail. */
const UNREACHABLE_DATABASE = 'postgres://postgres@127.0.0.1:9/nothing';
const LONG_SECRET = 'a-deployment-secret-of-at-least-32-bytes';
const IMAGE_HOST = 'cloudinary://key:secret@cloud';

/** Runs a project script as npm would, with only the given deployment variables set. */
function runScript(script: string, env: Record<string, string>, args: string[] = [], timeout = 170_000): Promise<RunResult> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(DATABASE_|DATA_DIR$|JWT_|CLOUDINARY_|VERCEL|NODE_ENV$|ADMIN_|STORAGE_|CRON_)/.test(name)),
  );
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.resolve(script), ...args],
      { cwd: path.resolve('.'), env: { ...inherited, LOG_LEVEL: 'info', ...env }, timeout },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

/** A script's run: a tsx start and its work took over 30 s on a two-core machine under heavy load. */
const SCRIPT_RUN = { timeout: 180_000 };

const buildDirs: string[] = [];
// A build output holds every function's packages: removing it took over a minute on a loaded machine.
afterAll(() => {
  for (const dir of buildDirs) fs.rmSync(dir, { recursive: true, force: true });
}, 300_000);

function buildDir(): string {
  const dir = makeTempDir('build');
  buildDirs.push(dir);
  return dir;
}

describe('on the platform (VERCEL set), a missing setting fails loudly', () => {
  it('db:migrate exits non-zero without DATABASE_URL instead of migrating an embedded database', SCRIPT_RUN, async () => {
    const dataDir = buildDir();
    const result = await runScript('scripts/migrate.ts', { VERCEL: '1', DATA_DIR: dataDir });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('DATABASE_URL is not set');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('the build refuses a deployment that lacks its database, secret and image host, naming each', SCRIPT_RUN, async () => {
    const result = await runScript('scripts/vercel-build.ts', { VERCEL: '1', VERCEL_ENV: 'production', JWT_SECRET: 'short' });
    expect(result.code).not.toBe(0);
    for (const setting of ['JWT_SECRET must be set to at least 32 bytes', 'DATABASE_URL must be set', 'CRON_SECRET must be set', 'CLOUDINARY_URL must be set']) {
      expect(result.output).toContain(setting);
    }
  });

  // It bundles every function: it took three minutes and more on a two-core machine other work kept busy.
  it('a preview build does not migrate: it never touches the database it is given, and writes the build output', { timeout: 480_000 }, async () => {
    const outputDir = buildDir();
    const result = await runScript(
      'scripts/vercel-build.ts',
      { VERCEL: '1', VERCEL_ENV: 'preview', DATABASE_URL: UNREACHABLE_DATABASE, JWT_SECRET: LONG_SECRET, CLOUDINARY_URL: IMAGE_HOST, CRON_SECRET: 'a-cron-secret' },
      [outputDir],
      470_000,
    );
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('migrations skipped');
    const functions = discoverRoutes(path.resolve('api'));
    expect(result.output).toContain(`bundling ${functions.length} functions into ${outputDir}…`);
    const progress = [...result.output.matchAll(/"msg":"bundled (\d+) of (\d+): (api\/\S+\.ts) \(\d+ s\)"/g)];
    expect(progress.map((line) => Number(line[1]))).toEqual(functions.map((_, index) => index + 1));
    expect(progress.map((line) => line[3]).sort()).toEqual(functions.map((route) => `api/${route.file}.ts`).sort());
    expect(result.output).not.toMatch(/about a minute/);
    expect(fs.readFileSync(path.join(outputDir, 'static', 'robots.txt'), 'utf8')).toBe(STATIC_FILES['robots.txt']);
    expect(JSON.parse(fs.readFileSync(path.join(outputDir, 'config.json'), 'utf8'))).toEqual({ version: 3, routes: buildRoutes(discoverRoutes(path.resolve('api'))) });
    const functionConfig = (file: string) => JSON.parse(fs.readFileSync(path.join(outputDir, 'functions', 'api', `${file}.func`, '.vc-config.json'), 'utf8')) as Record<string, unknown>;
    for (const route of discoverRoutes(path.resolve('api'))) {
      expect(functionConfig(route.file), route.file).toEqual({
        runtime: 'nodejs24.x',
        handler: 'index.mjs',
        launcherType: 'Nodejs',
        shouldAddHelpers: false,
        shouldAddSourcemapSupport: true,
        // The CSV export streams a whole catalogue; every other function has 30 s.
        maxDuration: route.file === 'listings/export' ? 300 : 30,
        memory: 1024,
      });
    }
  });

  it('a production build migrates, so it fails when its database cannot be reached', SCRIPT_RUN, async () => {
    const result = await runScript(
      'scripts/vercel-build.ts',
      { VERCEL: '1', VERCEL_ENV: 'production', DATABASE_URL: UNREACHABLE_DATABASE, JWT_SECRET: LONG_SECRET, CLOUDINARY_URL: IMAGE_HOST, CRON_SECRET: 'a-cron-secret' },
    );
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('build failed');
  });

  it('a production build whose database the server lacks fails naming DATABASE_URL and the createdb line that makes it', SCRIPT_RUN, async () => {
    const server = await startMissingDatabaseServer();
    try {
      const result = await runScript('scripts/vercel-build.ts', {
        VERCEL: '1',
        VERCEL_ENV: 'production',
        DATABASE_URL: `postgres://postgres@127.0.0.1:${server.port}/shop_production`,
        JWT_SECRET: LONG_SECRET,
        CLOUDINARY_URL: IMAGE_HOST,
        CRON_SECRET: 'a-cron-secret',
      });
      expect(result.code).not.toBe(0);
      const failure = result.output.split('\n').find((line) => line.includes('"build failed"'));
      expect((JSON.parse(failure!) as { error: string }).error).toBe(
        `The database "shop_production" that DATABASE_URL names does not exist on its server: create it (createdb -h 127.0.0.1 -p ${server.port} -U postgres shop_production), or fix DATABASE_URL.`,
      );
    } finally {
      await server.close();
    }
  });

  it('npm start refuses to start in production with a JWT_SECRET under 32 bytes', SCRIPT_RUN, async () => {
    const result = await runScript('scripts/serve.ts', { NODE_ENV: 'production', JWT_SECRET: 'secret', DATA_DIR: buildDir(), PORT: '0' });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('Refusing to start: JWT_SECRET must be set to at least 32 bytes in production');
  });
});

describe('the settings a deployment must have', () => {
  it('names the database, a long enough secret and the image host on the platform, and nothing locally', () => {
    expect(missingSettings(readConfig({ VERCEL: '1', JWT_SECRET: 'short' })).map((item) => item.setting)).toEqual(['JWT_SECRET', 'DATABASE_URL', 'CRON_SECRET', 'CLOUDINARY_URL']);
    const complete = { VERCEL: '1', JWT_SECRET: LONG_SECRET, DATABASE_URL: UNREACHABLE_DATABASE, CRON_SECRET: 'a-cron-secret' };
    expect(missingSettings(readConfig({ ...complete, CLOUDINARY_URL: IMAGE_HOST }))).toEqual([]);
    expect(missingSettings(readConfig({ ...complete, STORAGE_PROVIDER: 'local' }))).toEqual([]);
    expect(missingSettings(readConfig({}))).toEqual([]);
  });

  it('builds and migrates once per deployment: the only build is the one that runs the build script, which writes every function', () => {
    const project = JSON.parse(fs.readFileSync('vercel.json', 'utf8')) as Record<string, unknown>;
    const scripts = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    // Without `builds`, the platform would also build every api/ file with its Node builder, over
    // the build's own functions, and that builder runs a `vercel-build` script before each one.
    expect(project.builds).toEqual([{ src: 'package.json', use: '@vercel/static-build' }]);
    expect(scripts['vercel-build']).toBe('tsx scripts/vercel-build.ts');
    expect(scripts['now-build']).toBeUndefined();
    // Ignored beside `builds` (`functions` is refused): the build writes each function's settings.
    expect(Object.keys(project).filter((key) => ['buildCommand', 'outputDirectory', 'functions'].includes(key))).toEqual([]);
  });
});

describe('readiness of a production server that lacks a setting', () => {
  // The first test's server also needs its own database: only the secret is missing here.
  const server = useTestServer({ NODE_ENV: 'production', JWT_SECRET: 'too-short' });

  it('answers 503 naming the missing setting, while liveness stays 200', async () => {
    const ready = await server.api.get('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(ready.body).toEqual({
      success: false,
      code: 'DEPENDENCY_UNAVAILABLE',
      error: 'Service unavailable: required settings are missing',
      details: [{ field: 'JWT_SECRET', message: 'must be set to at least 32 bytes in production' }],
    });
    expect((await server.api.get('/api/health')).status).toBe(200);
  });

  it('issues no token with a short secret: sign-in answers the 503 envelope, not a 500', async () => {
    await server.db.insert(users).values({ email: 'short-secret@example.com', password: await hashPassword('the-right-password'), name: 'Agent', phone: '+1555', role: 'AGENT' });
    const response = await server.api.post('/api/auth/login', { json: { email: 'short-secret@example.com', password: 'the-right-password' } });
    expect(response.status).toBe(503);
    expect(response.body.success).toBe(false);
  });
});
