import '../lib/cli/project-env.js';
import { runCommand } from '../lib/cli/failure.js';
import { prepareDatabase } from '../lib/cli/prepare-database.js';
import { config } from '../lib/config.js';
import { log } from '../lib/log.js';

runCommand(async () => {
  const cfg = config();
  await prepareDatabase(cfg);
  log.info('migrations applied', { driver: cfg.databaseDriver });
});
