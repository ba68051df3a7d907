import type { ColumnTypes, DatabaseShape } from './inspect.js';
import {
  CARRIED_USER_COLUMNS,
  OPTIONAL_COLUMNS,
  OPTIONAL_TABLES,
  ORIGINAL_MIGRATIONS,
  ORIGINAL_TABLES,
  PRISMA_MIGRATIONS_TABLE,
  type OriginalTable,
} from './original-schema.js';

/** Where the original's tables are moved while this schema is built beside them. */
export const SIDE_SCHEMA = 'adopt_original';

/** The original's tables present in a database, with their columns. */
export type OriginalTables = ReadonlyMap<OriginalTable, ColumnTypes>;

export type Recognition =
  | { kind: 'original'; tables: OriginalTables }
  | { kind: 'this-service'; recorded: number }
  | { kind: 'unrecognised'; reasons: string[] };

const originalTableNames = Object.keys(ORIGINAL_TABLES) as OriginalTable[];

function migrationProblems(shape: DatabaseShape): string[] {
  if (!shape.prismaMigrations) return [`it has no ${PRISMA_MIGRATIONS_TABLE} table, so it was not made by the original service's migrations`];
  const applied = shape.prismaMigrations.filter((migration) => migration.finished && !migration.rolledBack).map((migration) => migration.name);
  const known = new Set<string>(ORIGINAL_MIGRATIONS);
  const problems: string[] = [];
  const missing = ORIGINAL_MIGRATIONS.filter((name) => !applied.includes(name));
  if (missing.length > 0) problems.push(`the original's migrations ${missing.join(', ')} are not applied (run the original's migrations to the end first)`);
  const unknown = applied.filter((name) => !known.has(name));
  if (unknown.length > 0) problems.push(`it has migrations this command does not know: ${unknown.join(', ')}`);
  const unfinished = shape.prismaMigrations.filter((migration) => !migration.finished && !migration.rolledBack).map((migration) => migration.name);
  if (unfinished.length > 0) problems.push(`migrations ${unfinished.join(', ')} started but never finished`);
  return problems;
}

function tableProblems(shape: DatabaseShape): string[] {
  const problems: string[] = [];
  for (const table of originalTableNames) {
    const columns = shape.relations.get(table);
    if (!columns) {
      if (!OPTIONAL_TABLES.includes(table)) problems.push(`table ${table} is missing`);
      continue;
    }
    const missing = ORIGINAL_TABLES[table].filter((column) => !columns.has(column));
    if (missing.length > 0) problems.push(`table ${table} lacks columns ${missing.join(', ')}`);
  }
  const expected = new Set<string>([...originalTableNames, PRISMA_MIGRATIONS_TABLE]);
  const strangers = [...shape.relations.keys()].filter((name) => !expected.has(name));
  if (strangers.length > 0) problems.push(`it has tables or views the original service does not make: ${strangers.join(', ')} (move them to another schema first)`);
  return problems;
}

/** Columns of the original's tables that adoption would lose: ones neither schema knows. */
function unknownColumnProblems(shape: DatabaseShape): string[] {
  const problems: string[] = [];
  for (const table of originalTableNames) {
    const columns = shape.relations.get(table);
    if (!columns) continue;
    const carried = table === 'users' ? CARRIED_USER_COLUMNS.map((column) => column.name) : [];
    const known = new Set<string>([...ORIGINAL_TABLES[table], ...(OPTIONAL_COLUMNS[table] ?? []), ...carried]);
    const unknown = [...columns.keys()].filter((column) => !known.has(column));
    if (unknown.length > 0) problems.push(`table ${table} has columns the original service does not make: ${unknown.join(', ')}`);
  }
  return problems;
}

/**
 * Tells the original's database (its tables and its `_prisma_migrations` rows) from this service's
 * (drizzle's journal) and from anything else, naming every reason a database is neither.
 */
export function recognise(shape: DatabaseShape): Recognition {
  if (shape.drizzleMigrations !== undefined && !shape.prismaMigrations) return { kind: 'this-service', recorded: shape.drizzleMigrations };
  if (shape.relations.size === 0) return { kind: 'unrecognised', reasons: ['it has no tables: there is nothing to adopt (a new database needs only npm run db:migrate)'] };
  const reasons = [...migrationProblems(shape), ...tableProblems(shape), ...unknownColumnProblems(shape)];
  if (shape.drizzleMigrations !== undefined) reasons.push(`it has both the original's migrations and this service's journal (${shape.drizzleMigrations} migrations recorded)`);
  if (shape.schemas.includes(SIDE_SCHEMA)) reasons.push(`it already has a schema named ${SIDE_SCHEMA}, which adoption needs for itself`);
  if (reasons.length > 0) return { kind: 'unrecognised', reasons };
  const tables = new Map(originalTableNames.flatMap((table) => {
    const columns = shape.relations.get(table);
    return columns ? [[table, columns] as const] : [];
  }));
  return { kind: 'original', tables };
}
