import '../lib/cli/project-env.js';
import { parseArgs } from 'node:util';
import { upsertAdmin } from '../lib/auth/bootstrap-admin.js';
import { checkAdminAccount, type AdminAccountInput } from '../lib/auth/admin-account.js';
import { prepareDatabase } from '../lib/cli/prepare-database.js';
import { progress } from '../lib/cli/progress.js';
import { runCommand } from '../lib/cli/failure.js';
import { config } from '../lib/config.js';
import { closeDb, getDb } from '../lib/db/client.js';

const USAGE = 'Usage: npm run create-admin -- --email <e-mail> --password <password> [--name <name>] [--phone <phone>]';

/** The options, held to the rules every administrator's details keep, each broken one named as its option. */
function readArguments(): AdminAccountInput {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' }, phone: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${USAGE}`);
  }
  const checked = checkAdminAccount(values);
  if (checked.problems) throw new Error(`${checked.problems.map((problem) => `--${problem.field} ${problem.message}`).join('\n')}\n${USAGE}`);
  return checked.account;
}

/** Creates or updates a SUPER_ADMIN. Run it while the server is stopped: the embedded database allows one process. */
async function main(): Promise<void> {
  const account = readArguments();
  await prepareDatabase(config());
  try {
    const db = await getDb();
    progress('Hashing the password (about a second)…');
    const { id, created } = await upsertAdmin(db, account);
    console.log(`${created ? 'Created' : 'Updated'} administrator ${account.email} (${id}).`);
  } finally {
    await closeDb();
  }
}

runCommand(main);
