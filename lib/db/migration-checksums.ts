import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The list of landed migrations and their SHA-256, in `sha256sum` format (`sha256sum -c` reads it). */
export const LANDED_MIGRATIONS_FILE = 'landed.sha256';

export interface MigrationChecksum {
  file: string;
  sha256: string;
}

/** Every migration file in the folder, in the order they apply, with its SHA-256. */
export function migrationChecksums(migrationsDir: string): MigrationChecksum[] {
  return fs
    .readdirSync(migrationsDir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => ({ file, sha256: crypto.createHash('sha256').update(fs.readFileSync(path.join(migrationsDir, file))).digest('hex') }));
}

/** The checksums recorded when each migration landed. */
export function landedChecksums(migrationsDir: string): MigrationChecksum[] {
  return fs
    .readFileSync(path.join(migrationsDir, LANDED_MIGRATIONS_FILE), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha256, file] = line.split(/\s+/);
      return { file: file!, sha256: sha256! };
    });
}
