import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds the original service's schema (Express + Prisma) in an empty database, as its deployments
 * did, from its migration files (kept in `tests/fixtures/original-service`, exactly as that
 * service's repository has them): for adoption's tests and for test databases of any size.
 */

const ORIGINAL_SERVICE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../tests/fixtures/original-service');

/** A connection to the database being built: statements with parameters, and scripts of several statements. */
export interface SqlSession {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  exec(text: string): Promise<void>;
}

export const ORIGINAL_MIGRATION_NAMES = fs
  .readdirSync(path.join(ORIGINAL_SERVICE, 'migrations'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

export interface OriginalSchemaOptions {
  /** Also make what the original's schema file has beyond its migrations (agent_codes, settings, inquiryClicks), as `prisma db push` did. Default true. */
  outsideMigrations?: boolean;
  /** The migrations to apply and record, default all of them. */
  migrations?: readonly string[];
}

/**
 * Builds the original service's schema as its deployments did: each migration file applied in name
 * order and recorded in `_prisma_migrations` as Prisma records it.
 */
export async function buildOriginalSchema(db: SqlSession, options: OriginalSchemaOptions = {}): Promise<void> {
  await db.exec(`CREATE TABLE "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);
  for (const name of options.migrations ?? ORIGINAL_MIGRATION_NAMES) {
    const migration = fs.readFileSync(path.join(ORIGINAL_SERVICE, 'migrations', name, 'migration.sql'), 'utf8');
    await db.exec(migration);
    await db.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
      [crypto.randomUUID(), crypto.createHash('sha256').update(migration).digest('hex'), name],
    );
  }
  if (options.outsideMigrations ?? true) await db.exec(fs.readFileSync(path.join(ORIGINAL_SERVICE, 'outside-migrations.sql'), 'utf8'));
}
