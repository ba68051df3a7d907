import fs from 'node:fs';
import { sql } from 'drizzle-orm/sql/sql';
import type { Config } from '../config.js';
import { connect, type Transaction } from '../db/client.js';
import { embeddedDatabaseExists } from '../db/embedded.js';
import { withDerivedDataDeferred } from '../listings/derived-data.js';
import { copyStatements, carriedColumnsStatement } from './copy-rows.js';
import { dataProblems } from './data-checks.js';
import { inspectDatabase } from './inspect.js';
import { applyMigrations, recordMigrations, serviceMigrations } from './migration-journal.js';
import { planAdoption, type TablePlan } from './plan.js';
import { queryRows } from '../db/query-rows.js';
import { recognise, type OriginalTables } from './recognise.js';
import { dropOriginal, moveOriginalAside } from './side-schema.js';

export type AdoptionOutcome =
  | { kind: 'adopted'; plan: TablePlan[]; counts: TableCount[] }
  | { kind: 'dry-run'; plan: TablePlan[] }
  | { kind: 'already-adopted'; recorded: number; migrations: number }
  | { kind: 'refused'; reasons: string[] };

export interface TableCount {
  table: string;
  rows: number;
}

export interface AdoptionOptions {
  dryRun: boolean;
  /** Progress, one line at a time. */
  progress: (line: string) => void;
}

/** A conversion of 100,000 listings runs statements far longer than a request may; hours are the bound here. */
const STATEMENT_TIMEOUT_MS = 6 * 60 * 60 * 1000;

/** Ends the transaction without its changes: a dry run, or a database adoption refuses. */
class Rollback extends Error {
  constructor(readonly outcome: AdoptionOutcome) {
    super('rolled back');
  }
}

async function timed<T>(progress: (line: string) => void, label: string, work: () => Promise<T>, describe: (result: T) => string = () => ''): Promise<T> {
  const startedAt = performance.now();
  const result = await work();
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  const detail = describe(result);
  progress(`${label}${detail ? `: ${detail}` : ''} (${seconds} s)`);
  return result;
}

const rowsText = (rows: number) => `${rows.toLocaleString('en-US')} ${rows === 1 ? 'row' : 'rows'}`;

async function countRows(tx: Transaction): Promise<TableCount[]> {
  const tables = await queryRows<{ table: string }>(
    tx,
    sql`select c.relname as table from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' order by c.relname`,
  );
  const counts: TableCount[] = [];
  for (const { table } of tables) {
    const [row] = await queryRows<{ count: string | number }>(tx, sql.raw(`select count(*) as count from "${table}"`));
    counts.push({ table, rows: Number(row?.count ?? 0) });
  }
  return counts;
}

/** Builds this schema beside the original's tables, copies every row across, and records the migrations. */
async function convert(tx: Transaction, tables: OriginalTables, progress: (line: string) => void): Promise<void> {
  await timed(progress, "moved the original's tables aside", () => moveOriginalAside(tx, tables));
  const migrations = serviceMigrations();
  await timed(progress, "created this service's schema", () => applyMigrations(tx, migrations), () => `${migrations.length} migrations`);
  const carried = carriedColumnsStatement(tables);
  if (carried) await tx.execute(sql.raw(carried));
  // The listings' indexes and derived structures are built once, set-wise, after every row is copied.
  await withDerivedDataDeferred(
    tx,
    async () => {
      for (const { table, statement } of copyStatements(tables)) {
        await timed(progress, `copied ${table}`, async () => ((await tx.execute(sql.raw(statement))) as unknown as { rowCount?: number | null; affectedRows?: number }), (result) => rowsText(result.rowCount ?? result.affectedRows ?? 0));
      }
    },
    progress,
  );
  await timed(progress, "dropped the original's tables", () => dropOriginal(tx));
  await recordMigrations(tx, migrations);
  await timed(progress, 'analyzed the tables for the planner', () => tx.execute(sql`ANALYZE`));
}

async function adoptIn(tx: Transaction, options: AdoptionOptions): Promise<AdoptionOutcome> {
  const recognition = recognise(await inspectDatabase(tx));
  if (recognition.kind === 'this-service') return { kind: 'already-adopted', recorded: recognition.recorded, migrations: serviceMigrations().length };
  if (recognition.kind === 'unrecognised') return { kind: 'refused', reasons: recognition.reasons };
  const problems = await dataProblems(tx, recognition.tables);
  if (problems.length > 0) return { kind: 'refused', reasons: problems };
  const plan = await planAdoption(tx, recognition.tables);
  if (options.dryRun) return { kind: 'dry-run', plan };
  await convert(tx, recognition.tables, options.progress);
  return { kind: 'adopted', plan, counts: await countRows(tx) };
}

/**
 * Converts the configured database of the original service into this service's schema, in one
 * transaction: on any failure, or on a dry run, or when it refuses, nothing is changed.
 */
export async function adoptDatabase(cfg: Config, options: AdoptionOptions): Promise<AdoptionOutcome> {
  const url = cfg.databaseUrlUnpooled ?? cfg.databaseUrl;
  if ((cfg.databaseDriver === 'pglite' || !url) && !embeddedDatabaseExists(cfg.dataDir)) {
    const reason = fs.existsSync(cfg.dataDir) ? `${cfg.dataDir} holds no embedded database` : `${cfg.dataDir} does not exist`;
    return { kind: 'refused', reasons: [`DATABASE_URL is not set and ${reason} (set DATABASE_URL, or DATA_DIR to the embedded database's folder)`] };
  }
  const connection = await connect({ ...cfg, databaseStatementTimeoutMs: STATEMENT_TIMEOUT_MS }, url);
  try {
    return await connection.db.transaction(async (tx) => {
      const outcome = await adoptIn(tx, options);
      if (outcome.kind !== 'adopted') throw new Rollback(outcome);
      return outcome;
    });
  } catch (error) {
    if (error instanceof Rollback) return error.outcome;
    throw error;
  } finally {
    await connection.close();
  }
}
