import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { landedChecksums, migrationChecksums } from '../lib/db/migration-checksums.js';

const MIGRATIONS_DIR = path.resolve('drizzle');

describe('landed migrations', () => {
  it('are byte for byte what they were when they landed: a change to the schema is a new migration', () => {
    const current = new Map(migrationChecksums(MIGRATIONS_DIR).map(({ file, sha256 }) => [file, sha256]));
    const edited = landedChecksums(MIGRATIONS_DIR).filter(({ file, sha256 }) => current.get(file) !== sha256).map(({ file }) => file);
    expect(edited).toEqual([]);
  });

  it('are all recorded: a new migration is added to drizzle/landed.sha256 by npm run db:freeze', () => {
    const recorded = new Set(landedChecksums(MIGRATIONS_DIR).map(({ file }) => file));
    expect(migrationChecksums(MIGRATIONS_DIR).map(({ file }) => file).filter((file) => !recorded.has(file))).toEqual([]);
  });
});
