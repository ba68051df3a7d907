import '../lib/cli/project-env.js';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { administratorExists, ensureConfiguredAdmin } from '../lib/auth/bootstrap-admin.js';
import { issueSetupLink } from '../lib/auth/setup-links.js';
import { describeDatabase, prepareDatabase } from '../lib/cli/prepare-database.js';
import { reportFailure } from '../lib/cli/failure.js';
import { config, describeMissing, missingSettings } from '../lib/config.js';
import { closeDb, getDb } from '../lib/db/client.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { createLocalServer } from '../lib/local-server/server.js';
import { log } from '../lib/log.js';
import { sweep } from '../lib/cron/sweep.js';

const SWEEP_INTERVAL_MS = 60_000;

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function listen(server: http.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * What a person needs once the server is up: where it is, its reference page, its data, and, while
 * there is no administrator, how to make the first one: the one-time link of `setupToken` (none on
 * the platform, where `create-admin` or the `ADMIN_*` settings make it), or the command.
 */
function startBanner(port: number, database: string, hasAdministrator: boolean, setupToken: string | undefined): string {
  const url = `http://localhost:${port}`;
  const lines = [`Marketplace Listing API on ${url}`, `  API reference: ${url}/api/docs`, `  Database:      ${database}`];
  if (!hasAdministrator && setupToken) {
    lines.push(
      '  No administrator yet. Make the first one in a browser (the link works once, for an hour):',
      `    ${url}/setup?token=${setupToken}`,
      "  or stop the server and run: npm run create-admin -- --email you@example.com --password 'a-long-password'",
    );
  } else if (!hasAdministrator) {
    lines.push(
      '  No administrator yet. Stop the server (Ctrl+C) and make one:',
      "    npm run create-admin -- --email you@example.com --password 'a-long-password'",
      '  or set ADMIN_EMAIL and ADMIN_PASSWORD in .env and start again.',
    );
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const cfg = config();
  const missing = missingSettings(cfg);
  if (missing.length > 0) throw new Error(`Refusing to start: ${describeMissing(missing)} (set it in .env or the environment).`);
  await prepareDatabase(cfg);
  await ensureConfiguredAdmin();
  const db = await getDb();
  const hasAdministrator = await administratorExists(db);
  const server = createLocalServer({ projectRoot });
  await listen(server, cfg.port);
  const { port } = server.address() as { port: number };
  // The scheduled sweeper of a deployment, run here every minute.
  const sweeping = setInterval(() => {
    void sweep().catch((error: unknown) => log.error('sweep failed', { error }));
  }, SWEEP_INTERVAL_MS);
  const shutdown = (signal: string) => {
    log.info('shutting down', { signal });
    clearInterval(sweeping);
    server.close();
    void settleDeferredWork()
      .then(() => closeDb())
      .finally(() => process.exit(0));
  };
  // Before the banner: whoever reads it may stop the server at once, and it should stop cleanly.
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  const setupToken = hasAdministrator || cfg.onVercel ? undefined : await issueSetupLink(db);
  process.stdout.write(startBanner(port, describeDatabase(cfg), hasAdministrator, setupToken));
  log.info('listening', { url: `http://localhost:${port}`, database: cfg.databaseDriver, storage: cfg.storageProvider });
}

main().catch(async (error: unknown) => {
  reportFailure(error);
  // The embedded database's lock and open connections would otherwise keep the process alive.
  await closeDb().catch(() => undefined);
  process.exit(1);
});
