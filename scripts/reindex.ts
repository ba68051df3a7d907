import '../lib/cli/project-env.js';
import { reportFailure } from '../lib/cli/failure.js';
import { describeDatabase, prepareDatabase } from '../lib/cli/prepare-database.js';
import { config } from '../lib/config.js';
import { connect, type Connection } from '../lib/db/client.js';
import { rebuildDerivedData } from '../lib/listings/derived-data.js';

/**
 * `npm run reindex`: rebuilds every search and count structure derived from the listings, and
 * their indexes, from the listings themselves, one line of progress a step. The storefront's
 * answers are the same afterwards; its reads of a structure wait while that one is rebuilt.
 */
async function main(): Promise<void> {
  const cfg = config();
  await prepareDatabase(cfg);
  // Rebuilding a million listings' structures takes longer than any request may.
  connection = await connect(cfg, undefined, 'maintenance');
  console.error(`Rebuilding the derived data of ${describeDatabase(cfg)}…`);
  const startedAt = performance.now();
  await rebuildDerivedData(connection.db, (line) => console.error(line));
  console.error(`Reindexed in ${((performance.now() - startedAt) / 1000).toFixed(1)} s.`);
}

let connection: Connection | undefined;

main()
  .catch(reportFailure)
  .finally(() => connection?.close());
