import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';
import type { OriginalTables } from './recognise.js';

const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const SHOWN = 3;

/** Ids are kept as they are, so each must be a UUID; references follow them (the original's foreign keys hold). */
async function idProblems(executor: Executor, tables: OriginalTables): Promise<string[]> {
  const problems: string[] = [];
  for (const table of tables.keys()) {
    if (table === 'settings') continue;
    const [row] = await queryRows<{ count: string | number; examples: string[] | null }>(
      executor,
      sql.raw(
        `select count(*) as count, (array_agg(id::text order by id::text))[1:${SHOWN}] as examples
         from "${table}" where id::text !~* '${UUID_PATTERN}'`,
      ),
    );
    const count = Number(row?.count ?? 0);
    if (count > 0) problems.push(`${count} row(s) of ${table} have ids that are not UUIDs (${(row?.examples ?? []).join(', ')}); this service keeps every id and needs UUIDs`);
  }
  return problems;
}

/** This service keeps e-mail addresses lower-cased, so two that differ only in case cannot both be kept. */
async function emailProblems(executor: Executor): Promise<string[]> {
  const rows = await queryRows<{ email: string; accounts: string[] }>(
    executor,
    sql`select lower(btrim(email)) as email, array_agg(email order by email) as accounts from users group by 1 having count(*) > 1 order by 1`,
  );
  return rows.map((row) => `accounts ${row.accounts.join(', ')} differ only in letter case or spaces; merge or rename them first`);
}

/** What in the original's rows stops adoption, each named; empty when nothing does. */
export async function dataProblems(executor: Executor, tables: OriginalTables): Promise<string[]> {
  return [...(await idProblems(executor, tables)), ...(await emailProblems(executor))];
}
