import fs from 'node:fs';
import path from 'node:path';
import { is } from 'drizzle-orm/entity';
import { PgTable } from 'drizzle-orm/pg-core/table';
import { getTableConfig } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../lib/db/schema.js';

const DOCUMENTS = ['README.md', ...fs.readdirSync('docs').filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];

/** The folders of the project a doc names files in. */
const PROJECT_FOLDERS = ['.ci', 'api', 'bench', 'docs', 'drizzle', 'lib', 'scripts', 'tests', 'types'];

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

const projectFiles = PROJECT_FOLDERS.flatMap(filesUnder);

/** The code spans of a page (`like this`), fenced blocks left out. */
function codeSpansOf(document: string): string[] {
  const markdown = fs.readFileSync(document, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return [...markdown.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
}

/** Every table, index and constraint the schema declares, by name. */
function schemaNames(): { tables: Set<string>; indexesAndConstraints: Set<string> } {
  const tables = new Set<string>();
  const indexesAndConstraints = new Set<string>();
  for (const value of Object.values(schema)) {
    if (!is(value, PgTable)) continue;
    const config = getTableConfig(value);
    tables.add(config.name);
    for (const index of config.indexes) indexesAndConstraints.add(index.config.name!);
    for (const key of config.primaryKeys) indexesAndConstraints.add(key.getName());
    for (const unique of config.uniqueConstraints) indexesAndConstraints.add(unique.getName()!);
    for (const check of config.checks) indexesAndConstraints.add(check.name);
    for (const column of config.columns) if (column.isUnique && column.uniqueName) indexesAndConstraints.add(column.uniqueName);
  }
  return { tables, indexesAndConstraints };
}

/** The source the service, its commands and its bench are made of: where a name the docs use must still be found. */
const source = ['api', 'bench', 'lib', 'scripts']
  .flatMap(filesUnder)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => fs.readFileSync(file, 'utf8'))
  .join('\n');

const scripts = new Set(Object.keys((JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts));
const { tables, indexesAndConstraints } = schemaNames();

describe('names in README.md and docs/', () => {
  it.each(DOCUMENTS)('%s runs only npm scripts package.json has', (document) => {
    const named = codeSpansOf(document).flatMap((span) => [...span.matchAll(/\bnpm run ([\w:-]+)/g)].map((match) => match[1]!));
    expect(named.filter((script) => !scripts.has(script))).toEqual([]);
  });

  it.each(DOCUMENTS)('%s names only files and folders the project has', (document) => {
    const paths = codeSpansOf(document).filter((span) => new RegExp(`^(${PROJECT_FOLDERS.map((folder) => folder.replace('.', '\\.')).join('|')})/[^\\s]*$`).test(span));
    // `lib/<domain>/view.ts` stands for any domain's file; `tests/auth` for the test files it begins.
    const missing = paths.filter((named) => {
      const file = named.replace(/[#:].*$/, '').replace(/\/$/, '');
      const pattern = new RegExp(`^${file.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/<[^>]+>/g, '[^/]+')}`);
      return !fs.existsSync(file) && !projectFiles.some((candidate) => pattern.test(candidate));
    });
    expect(missing).toEqual([]);
  });

  it.each(DOCUMENTS)('%s names only tables, indexes and constraints the schema declares, and words the code still uses', (document) => {
    const identifiers = codeSpansOf(document)
      .map((span) => ({ name: span.replace(/\(\)$/, ''), called: span.endsWith('()') }))
      .filter(({ name }) => /^[a-z][a-zA-Z0-9]*(_[a-zA-Z0-9]+)+$/.test(name));
    // `name()` is a function, whatever its name ends with; otherwise `_key` and the like end an index or constraint.
    const missing = identifiers
      .filter(({ name, called }) => {
        if (!called && /_(idx|pkey|key|check|fk)$/.test(name)) return !indexesAndConstraints.has(name);
        return !tables.has(name) && !source.includes(name);
      })
      .map(({ name }) => name);
    expect(missing).toEqual([]);
  });

  it('tells a name the schema lacks from one it has', () => {
    expect(tables).toContain('listings');
    expect(tables).not.toContain('listing');
    expect(indexesAndConstraints).toContain('listings_trashed_deletedAt_idx');
    expect(indexesAndConstraints).toContain('listings_category_required_check');
    expect(indexesAndConstraints).not.toContain('listings_title_idx');
  });
});
