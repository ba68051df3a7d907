import '../lib/cli/project-env.js';
import { parseArgs } from 'node:util';
import { runCommand } from '../lib/cli/failure.js';
import { prepareDatabase } from '../lib/cli/prepare-database.js';
import { config } from '../lib/config.js';
import { closeDb, getDb } from '../lib/db/client.js';
import { DEMO_AGENT_PASSWORD, DEMO_AGENTS, seedDemoStore } from '../lib/seeding/demo-store.js';

const USAGE = 'Usage: npm run seed:demo [-- --listings N]   (N from 0 to 500, default 50)';

function readListings(value: string | undefined): number {
  if (value === undefined) return 50;
  const total = Number(value);
  if (!Number.isInteger(total) || total < 0 || total > 500) throw new Error(`--listings must be a whole number from 0 to 500.\n${USAGE}`);
  return total;
}

/** Fills the configured database with a small store to try the API on. Run it while the server is stopped. */
async function main(): Promise<void> {
  let values: { listings?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ options: { listings: { type: 'string' }, help: { type: 'boolean' } }, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const listings = readListings(values.listings);
  const cfg = config();
  await prepareDatabase(cfg);
  try {
    console.log(`Seeding a demo store (${listings} listings, images stored on ${cfg.storageProvider === 'local' ? cfg.uploadDir : 'the image host'})...`);
    const outcome = await seedDemoStore(await getDb(), {
      listings,
      onProgress: ({ done, total, title }) => console.log(`  [${String(done).padStart(String(total).length)}/${total}] ${title}`),
    });
    console.log(`Categories created: ${outcome.categoriesCreated.length > 0 ? outcome.categoriesCreated.join(', ') : 'none (all there)'}`);
    console.log(`Settings filled: ${outcome.settingsFilled.length > 0 ? outcome.settingsFilled.join(', ') : 'none (all set)'}`);
    console.log(`Listings: ${outcome.listingsCreated} created, ${outcome.listingsTotal} in all for the demo agents.`);
    console.log(`\nDemo agents (${outcome.agentsCreated} new), password "${DEMO_AGENT_PASSWORD}":`);
    for (const agent of DEMO_AGENTS) console.log(`  ${agent.email}  (${agent.name})`);
  } finally {
    await closeDb();
  }
}

runCommand(main);
