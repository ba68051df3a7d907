import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { config, type Config } from '../config.js';
import { log, logs } from '../log.js';
import { DatabaseUrlMissing } from './database-url-missing.js';
import { timedStatement, timeQueriesOf } from './statement-timing.js';

/**
 * Queries name their tables (lib/db/schema.ts) through the query builder; the relational API
 * (`db.query.*`) is not used, so the connection is made without the schema. A function that
 * touches no table (readiness) then never loads the table definitions.
 */
export type Database = PgDatabase<PgQueryResultHKT>;
export type Transaction = PgTransaction<PgQueryResultHKT, Record<string, never>, ExtractTablesWithRelations<Record<string, never>>>;
/** Anything queries can run on: the pooled database or an open transaction. */
export type Executor = Database | Transaction;

export interface Connection {
  db: Database;
  close: () => Promise<void>;
}

let connection: Promise<Connection> | undefined;

/**
 * With `LOG_LEVEL=debug`, every statement is logged with the number of its parameters, never their
 * values: they carry passwords' and reset codes' hashes, tokens and the bot token, and a log is
 * read by more people, and kept longer, than the database.
 */
function queryLogger() {
  return logs('debug') ? { logQuery: (query: string, params: unknown[]) => log.debug('query', { sql: query, parameters: params.length }) } : undefined;
}

interface ErrorEmitter {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * A connection that dies (idle in the pool, or in use by a query) emits 'error'; unheard, that
 * would crash the process. The query in flight still fails and is answered 503 by the route.
 */
function guardPoolErrors(pool: ErrorEmitter & { on(event: 'connect', listener: (client: ErrorEmitter) => void): unknown }): void {
  pool.on('error', (error) => log.warn('idle database connection failed', { error: error.message }));
  pool.on('connect', (client) => client.on('error', (error) => log.warn('database connection failed', { error: error.message })));
}

/**
 * Every statement is timed where it is sent (statement-timing.ts): a pool's own queries, and those
 * of the connections it hands out for transactions; each is timed once, whichever way it came.
 */
function timePoolStatements<P extends { query: (...args: never[]) => Promise<unknown>; connect: () => Promise<{ query: (...args: never[]) => Promise<unknown> }> }>(pool: P): P {
  timeQueriesOf(pool);
  const connect = pool.connect.bind(pool);
  const timed = new WeakSet<object>();
  // The pool calls its own connect() with a callback for its queries: that call goes through as it is.
  pool.connect = ((...args: unknown[]) => {
    if (args.length > 0) return (connect as (...given: unknown[]) => unknown)(...args);
    return timedStatement(connect).then((client) => {
      if (!timed.has(client)) timed.add(timeQueriesOf(client));
      return client;
    });
  }) as P['connect'];
  return pool;
}

/** The embedded database's statements are timed as it runs them, inside a transaction too. */
function timeEmbeddedStatements(client: PGlite): PGlite {
  timeQueriesOf(client);
  const transaction = client.transaction.bind(client);
  client.transaction = ((callback) => transaction((tx) => callback(timeQueriesOf(tx)))) as PGlite['transaction'];
  return client;
}

async function connectPglite(cfg: Config): Promise<Connection> {
  const { openEmbeddedDatabase } = await import('./embedded.js');
  const { client, release } = await openEmbeddedDatabase(cfg.dataDir);
  timeEmbeddedStatements(client);
  const { drizzle } = await import('drizzle-orm/pglite');
  return {
    db: drizzle({ client, logger: queryLogger() }) as unknown as Database,
    close: async () => {
      await client.close();
      release();
    },
  };
}

/**
 * What a connection serves: requests, whose statements are bounded, or maintenance (migrations,
 * seeding, adoption), whose statements rebuild whole tables and indexes and run as long as that takes.
 */
export type ConnectionUse = 'requests' | 'maintenance';

/**
 * Bounded waits: a database that accepts connections but never answers fails a request within a
 * few seconds (answered 503 with Retry-After), instead of holding it until the platform kills it.
 * The statement timeout is the server's; the query timeout catches a server that stopped answering.
 */
function poolOptions(url: string, cfg: Config, use: ConnectionUse) {
  const waits =
    use === 'requests'
      ? { statement_timeout: cfg.databaseStatementTimeoutMs, query_timeout: cfg.databaseStatementTimeoutMs + cfg.databaseConnectTimeoutMs }
      : {};
  return {
    connectionString: url,
    max: cfg.onVercel ? 5 : 10,
    idleTimeoutMillis: 10_000,
    connectionTimeoutMillis: cfg.databaseConnectTimeoutMs,
    ...waits,
  };
}

async function connectPostgres(url: string, cfg: Config, use: ConnectionUse): Promise<Connection> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = timePoolStatements(new pg.Pool(poolOptions(url, cfg, use)));
  guardPoolErrors(pool);
  if (cfg.onVercel) {
    const { attachDatabasePool } = await import('@vercel/functions');
    attachDatabasePool(pool);
  }
  return { db: drizzle({ client: pool, logger: queryLogger() }) as unknown as Database, close: () => pool.end() };
}

async function connectNeon(url: string, cfg: Config, use: ConnectionUse): Promise<Connection> {
  const { configureNeon } = await import('./neon.js');
  const { Pool } = await configureNeon();
  const { drizzle } = await import('drizzle-orm/neon-serverless');
  const pool = timePoolStatements(new Pool(poolOptions(url, cfg, use)));
  guardPoolErrors(pool);
  if (cfg.onVercel) {
    const { attachDatabasePool } = await import('@vercel/functions');
    attachDatabasePool(pool);
  }
  return { db: drizzle({ client: pool, logger: queryLogger() }) as unknown as Database, close: () => pool.end() };
}

export function connect(cfg: Config, url: string | undefined = cfg.databaseUrl, use: ConnectionUse = 'requests'): Promise<Connection> {
  if (cfg.onVercel && !url) return Promise.reject(new DatabaseUrlMissing());
  if (cfg.databaseDriver === 'pglite' || !url) return connectPglite(cfg);
  if (cfg.databaseDriver === 'neon') return connectNeon(url, cfg, use);
  return connectPostgres(url, cfg, use);
}

/** The shared database of this process (one pool per function instance). */
export async function getDb(): Promise<Database> {
  connection ??= connect(config()).catch((error: unknown) => {
    connection = undefined;
    throw error;
  });
  return (await connection).db;
}

export async function closeDb(): Promise<void> {
  const current = connection;
  connection = undefined;
  if (current) await (await current).close();
}
