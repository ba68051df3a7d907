import { findPostgresError } from './postgres-error.js';

/** The database a failure says its server lacks (PostgreSQL's 3D000, invalid_catalog_name), or undefined for any other failure. */
export function missingDatabaseName(error: unknown): string | undefined {
  const postgres = findPostgresError(error);
  if (postgres?.code !== '3D000') return undefined;
  return /database "(.+)" does not exist/.exec(postgres.message ?? '')?.[1] ?? '';
}

/**
 * The one line that says a database `setting` names does not exist on its server, and what to do.
 * `createCommand`, the createdb line that makes it, names the server and its user: it is for a
 * person at a terminal, not for an answer anyone may ask for.
 */
export function explainMissingDatabase(name: string, setting: string, createCommand?: string): string {
  const create = createCommand ? `create it (${createCommand})` : 'create it';
  return `The database "${name}" that ${setting} names does not exist on its server: ${create}, or fix ${setting}.`;
}
