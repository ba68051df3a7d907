import { config } from '../config.js';
import { explainMissingDatabase, missingDatabaseName } from '../db/missing-database.js';
import { log } from '../log.js';

interface SystemError {
  code?: unknown;
  port?: unknown;
  address?: unknown;
  syscall?: unknown;
  errors?: unknown[];
}

function systemError(error: unknown): SystemError {
  const candidate = (error ?? {}) as SystemError;
  // A connection tried on several addresses (localhost as ::1 and 127.0.0.1) fails with all of them.
  const first = Array.isArray(candidate.errors) ? (candidate.errors[0] as SystemError | undefined) : undefined;
  return candidate.code === undefined && first ? first : candidate;
}

/**
 * A server that lacks the database its URL names (PostgreSQL's 3D000): which setting names it, and
 * the `createdb` line that makes it on that server.
 */
function missingDatabase(name: string): string {
  const cfg = config();
  const [setting, url] =
    cfg.databaseUrlUnpooled && new URL(cfg.databaseUrlUnpooled).pathname === `/${name}`
      ? ['DATABASE_URL_UNPOOLED', cfg.databaseUrlUnpooled]
      : ['DATABASE_URL', cfg.databaseUrl];
  const server = url ? new URL(url) : undefined;
  const options = server
    ? [`-h ${server.hostname}`, server.port && `-p ${server.port}`, server.username && `-U ${decodeURIComponent(server.username)}`].filter(Boolean)
    : [];
  return explainMissingDatabase(name, setting, `createdb ${[...options, name].join(' ')}`);
}

/** What a person should do about a failure, in one line: the causes a newcomer meets get advice. */
export function explainFailure(error: unknown): string {
  const system = systemError(error);
  if (system.code === 'EADDRINUSE') {
    const port = typeof system.port === 'number' ? system.port : 5000;
    return `Port ${port} is already in use: stop the program using it, or choose another port (PORT=${port + 1} npm start, or PORT in .env).`;
  }
  if (system.code === 'EACCES' && system.syscall === 'listen') {
    return `Not allowed to listen on port ${String(system.port)}: choose a port above 1023 (PORT in .env or the environment).`;
  }
  if (system.code === 'ECONNREFUSED' || system.code === 'ENOTFOUND') {
    return `The database at DATABASE_URL cannot be reached (${String(system.code)} ${String(system.address ?? '')}): start it, fix DATABASE_URL, or unset it to use the embedded database.`;
  }
  const missing = missingDatabaseName(error);
  if (missing !== undefined) return missingDatabase(missing);
  if (!(error instanceof Error)) return String(error);
  // The query builder wraps a database error in one that quotes the whole statement.
  if (error.message.startsWith('Failed query:') && error.cause instanceof Error) return explainFailure(error.cause);
  return error.message;
}

/**
 * Ends a command that failed: the one-line explanation on stderr, the whole error (its stack) in
 * the debug log (`LOG_LEVEL=debug`), and a non-zero exit code.
 */
export function reportFailure(error: unknown): void {
  process.stderr.write(`${explainFailure(error)}\n`);
  log.debug('failure details', { error });
  process.exitCode = 1;
}

/** Runs a command's main function; any failure ends it through `reportFailure`. */
export function runCommand(main: () => Promise<void>): void {
  main().catch(reportFailure);
}
