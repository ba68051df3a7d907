import '../lib/cli/project-env.js';
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { upsertAdmin } from '../lib/auth/bootstrap-admin.js';
import { MAX_PASSWORD_BYTES, MIN_PASSWORD_LENGTH } from '../lib/auth/schema.js';
import { prepareDatabase } from '../lib/cli/prepare-database.js';
import { progress } from '../lib/cli/progress.js';
import { runCommand } from '../lib/cli/failure.js';
import { config } from '../lib/config.js';
import { closeDb, getDb } from '../lib/db/client.js';

const USAGE = 'Usage: npm run create-admin -- --email <e-mail> --password <password> [--name <name>] [--phone <phone>]';

const Arguments = v.object(
  {
    email: v.pipe(v.string('--email must be a string'), v.trim(), v.toLowerCase(), v.email('--email must be a valid e-mail address')),
    password: v.pipe(
      v.string('--password must be a string'),
      v.minLength(MIN_PASSWORD_LENGTH, `--password must be at least ${MIN_PASSWORD_LENGTH} characters`),
      v.check((password) => Buffer.byteLength(password, 'utf8') <= MAX_PASSWORD_BYTES, `--password must be at most ${MAX_PASSWORD_BYTES} bytes`),
    ),
    name: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, '--name must not be empty')), 'Administrator'),
    phone: v.optional(v.pipe(v.string(), v.trim()), ''),
  },
  // A missing option's issue names it as `"email"`.
  (issue) => `${issue.expected?.replace(/^"(\w+)"$/, '--$1') ?? 'an option'} is required`,
);

function readArguments(): v.InferOutput<typeof Arguments> {
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
  const result = v.safeParse(Arguments, values);
  if (!result.success) throw new Error(`${result.issues.map((issue) => issue.message).join('\n')}\n${USAGE}`);
  return result.output;
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
