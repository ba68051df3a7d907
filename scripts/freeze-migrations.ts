import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANDED_MIGRATIONS_FILE, migrationChecksums } from '../lib/db/migration-checksums.js';

/**
 * `npm run db:freeze`: records the checksum of every migration in `drizzle/`, run once when a new
 * migration lands. Landed ones never change (a fix is a new migration), and the test suite fails
 * on any edit to a recorded file or on a migration that is not recorded.
 */
const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'drizzle');
const lines = migrationChecksums(migrationsDir).map(({ file, sha256 }) => `${sha256}  ${file}`);
fs.writeFileSync(path.join(migrationsDir, LANDED_MIGRATIONS_FILE), `${lines.join('\n')}\n`);
process.stdout.write(`recorded ${lines.length} migrations in drizzle/${LANDED_MIGRATIONS_FILE}\n`);
