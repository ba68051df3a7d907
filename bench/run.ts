import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { compile, SERVICE_URL, type BenchContext, type BenchSection, type BenchStore } from './harness.js';
import { benchBulk } from './sections/bulk.js';
import { benchColdStarts } from './sections/cold.js';
import { benchDeployedFunctions } from './sections/deployed.js';
import { benchLoad } from './sections/load.js';
import { benchLoginFlood } from './sections/logins.js';
import { benchMemory } from './sections/memory.js';
import { benchPhotoBytes } from './sections/photos.js';
import { benchScale } from './sections/scale.js';
import { prepareStore } from './store.js';

/**
 * Every section, in the order a full run takes them: the cold imports first, timed before any
 * load run leaves the database and the machine busy (autovacuum, flushes) for a while after it.
 */
const SECTIONS: Record<string, BenchSection> = {
  cold: benchColdStarts,
  deployed: benchDeployedFunctions,
  load: benchLoad,
  logins: benchLoginFlood,
  memory: benchMemory,
  scale: benchScale,
  bulk: benchBulk,
  photos: benchPhotoBytes,
};

const USAGE = `Usage: npm run bench -- [--listings N] [--duration S] [--connections C] [--sections ${Object.keys(SECTIONS).join(',')}]
Runs against BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/mkt_bench), seeding it up to N listings.
The scale section runs against BENCH_SCALE_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/mkt_scale), seeding
1,000,000 listings there when it has fewer; the bulk section adopts a new original database of a million listings in
BENCH_ADOPTION_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/mkt_adoption). Exits with 1 when a section misses its target.`;

/** The environment of the service and of every process the benchmarks start. */
function benchEnvironment(databaseUrl: string, workDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    DATABASE_DRIVER: 'pg',
    JWT_SECRET: 'benchmark-secret-benchmark-secret-benchmark',
    BCRYPT_ROUNDS: '10',
    STORAGE_PROVIDER: 'local',
    UPLOAD_DIR: path.join(workDir, 'uploads'),
    DATA_DIR: path.join(workDir, 'data'),
    ADMIN_EMAIL: '',
    MESSENGER_BOT_TOKEN: '',
    LOG_LEVEL: 'silent',
    // Image URLs are absolute on this prefix, which the floor is given too, so both answers compare.
    API_BASE_URL: SERVICE_URL,
  };
}

/** Runs the chosen sections in order and answers the names of those that missed their target. */
async function main(): Promise<string[]> {
  const { values: options } = parseArgs({
    options: {
      listings: { type: 'string', default: '100000' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '10' },
      sections: { type: 'string', default: Object.keys(SECTIONS).join(',') },
      help: { type: 'boolean' },
    },
  });
  if (options.help) {
    console.log(USAGE);
    return [];
  }
  const chosen = options.sections.split(',');
  const unknown = chosen.filter((name) => !(name in SECTIONS));
  if (unknown.length > 0) throw new Error(`unknown section ${unknown.join(', ')}\n${USAGE}`);

  const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/mkt_bench';
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-bench-'));
  const env = benchEnvironment(databaseUrl, workDir);
  // The project's modules this process imports (migrations, token signing) read their configuration from process.env.
  Object.assign(process.env, env);
  let store: Promise<BenchStore> | undefined;
  const context: BenchContext = {
    env,
    duration: Number(options.duration),
    connections: Number(options.connections),
    store: () => (store ??= prepareStore(databaseUrl, Number(options.listings), env)),
  };

  compile();
  console.log(`# Benchmarks, ${os.cpus().length} cores`);
  const missed: string[] = [];
  try {
    for (const name of chosen) {
      if (!(await SECTIONS[name]!(context))) missed.push(name);
    }
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  return missed;
}

main().then(
  (missed) => {
    if (missed.length === 0) return;
    console.log(`\nMISSED: ${missed.join(', ')}`);
    process.exitCode = 1;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
