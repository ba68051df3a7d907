import { stringify } from 'csv-stringify/sync';
import { peakRssMb, query, runScript, SERVICE_URL, startService, withClient, type BenchContext } from '../harness.js';
import { prepareDatabase, scaleDatabaseUrl, SCALE_LISTINGS, tokensAndIds } from './scale.js';

/** The most the service's peak may grow over its idle size while it exports a million listings. */
const EXPORT_GROWTH_TARGET_MB = 150;
/** A file of this many rows imports within one function's time. */
const IMPORT_ROWS = 5000;
const IMPORT_TARGET_SECONDS = 30;

/** An original database of a real shop's size is taken over within ten minutes, the storefront down meanwhile. */
const ADOPTED_LISTINGS = 1_000_000;
const ADOPTION_TARGET_SECONDS = 600;

const MEGABYTE = 1024 * 1024;

/** Reads a streamed answer to its end, counting its bytes and its line ends, holding none of it. */
async function drain(response: Response): Promise<{ bytes: number; lines: number }> {
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 0x0a) lines += 1;
  }
  return { bytes, lines };
}

/** The administrator's export of a million listings: its time, and the service's peak RSS over its idle size. */
async function benchExport(context: BenchContext): Promise<boolean> {
  console.log(`\n## Bulk: an administrator's export of ${SCALE_LISTINGS.toLocaleString('en-US')} listings as CSV (peak RSS growth target < ${EXPORT_GROWTH_TARGET_MB} MB)\n`);
  const databaseUrl = scaleDatabaseUrl(context);
  const env: NodeJS.ProcessEnv = { ...context.env, DATABASE_URL: databaseUrl };
  await prepareDatabase(databaseUrl, env);
  const { admin } = await tokensAndIds(databaseUrl);
  const service = await startService(env);
  try {
    const headers = { authorization: `Bearer ${admin}` };
    // Loads the export's function and its CSV writer: an export that matches nothing.
    await drain(await fetch(`${SERVICE_URL}/api/listings/export?status=ARCHIVED&categoryId=00000000-0000-4000-8000-000000000000`, { headers }));
    const idle = peakRssMb(service.child.pid!);
    const started = performance.now();
    const response = await fetch(`${SERVICE_URL}/api/listings/export`, { headers });
    const { bytes, lines } = await drain(response);
    const seconds = (performance.now() - started) / 1000;
    const peak = peakRssMb(service.child.pid!);
    console.log(`HTTP ${response.status}: ${(bytes / MEGABYTE).toFixed(0)} MB, ${lines.toLocaleString('en-US')} lines in ${seconds.toFixed(1)} s (${Math.round(lines / seconds).toLocaleString('en-US')} a second)`);
    console.log(`peak RSS idle ${idle.toFixed(0)} MB, during the export ${peak.toFixed(0)} MB: ${(peak - idle).toFixed(0)} MB more (target < ${EXPORT_GROWTH_TARGET_MB} MB)`);
    return response.status === 200 && lines > SCALE_LISTINGS && peak - idle < EXPORT_GROWTH_TARGET_MB;
  } finally {
    await service.stop();
  }
}

/** A file of new phones as a shop would bring them: varied titles, descriptions with commas and quotes. */
function phonesFile(rows: number): string {
  const brands = ['Apple', 'Samsung', 'Tecno', 'Infinix', 'Xiaomi', 'Nokia'];
  const storage = ['64GB', '128GB', '256GB'];
  return stringify([
    ['title', 'description', 'price', 'stockQuantity', 'category', 'attr:brand', 'attr:model', 'attr:storage', 'attr:condition'],
    ...Array.from({ length: rows }, (_, index) => {
      const brand = brands[index % brands.length]!;
      return [
        `${brand} phone ${index}, ${storage[index % 3]}`,
        `Imported in bulk, "as new", with its box and charger. Batch ${Math.floor(index / 100)}.`,
        (50 + (index % 900) + 0.99).toFixed(2),
        String(1 + (index % 5)),
        'Phones',
        brand,
        `Model ${index % 40}`,
        storage[index % 3]!,
        index % 2 === 0 ? 'Brand New' : 'Used - Good',
      ];
    }),
  ], { record_delimiter: 'windows' });
}

/** An agent's file of 5,000 new listings: a dry run, then the import, which must finish within one function's time. */
async function benchImport(context: BenchContext): Promise<boolean> {
  console.log(`\n## Bulk: an agent's import of ${IMPORT_ROWS.toLocaleString('en-US')} rows (target < ${IMPORT_TARGET_SECONDS} s)\n`);
  const store = await context.store();
  const service = await startService(context.env);
  try {
    const file = phonesFile(IMPORT_ROWS);
    const post = (path: string) => fetch(`${SERVICE_URL}${path}`, { method: 'POST', headers: { authorization: `Bearer ${store.agentToken}`, 'content-type': 'text/csv' }, body: file });
    let started = performance.now();
    const checked = await post('/api/listings/import?dryRun=true');
    const dryRun = (await checked.json()) as { data?: { created: number } };
    console.log(`dry run: HTTP ${checked.status}, ${dryRun.data?.created ?? 0} would be created, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    started = performance.now();
    const imported = await post('/api/listings/import');
    const report = (await imported.json()) as { data?: { created: number; failed: number; rows: Array<{ id?: string }> } };
    const seconds = (performance.now() - started) / 1000;
    console.log(`import: HTTP ${imported.status}, ${report.data?.created ?? 0} created, ${report.data?.failed ?? 0} failed, in ${seconds.toFixed(1)} s (target < ${IMPORT_TARGET_SECONDS} s)`);
    // The benchmark database keeps its size from run to run.
    const ids = (report.data?.rows ?? []).flatMap((row) => (row.id ? [row.id] : []));
    await query(store.databaseUrl, 'delete from listings where id = any($1::uuid[])', [ids]);
    return imported.status === 200 && report.data?.created === IMPORT_ROWS && seconds < IMPORT_TARGET_SECONDS;
  } finally {
    await service.stop();
  }
}

/** Drops and creates the database `databaseUrl` names: adoption converts its database in place, so each run starts from a new original. */
async function recreateDatabase(databaseUrl: string): Promise<void> {
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const name = new URL(databaseUrl).pathname.slice(1).replace(/"/g, '');
  await withClient(maintenance.toString(), async (client) => {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  });
}

/** `npm run db:adopt` of the original service's database with a million listings of the realistic catalogue, timed. */
async function benchAdoption(context: BenchContext): Promise<boolean> {
  console.log(`\n## Bulk: adoption of the original service's database with ${ADOPTED_LISTINGS.toLocaleString('en-US')} listings (target < ${ADOPTION_TARGET_SECONDS} s)\n`);
  const databaseUrl = context.env.BENCH_ADOPTION_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/mkt_adoption';
  await recreateDatabase(databaseUrl);
  runScript('scripts/original-generate.ts', ['--listings', String(ADOPTED_LISTINGS), '--database-url', databaseUrl], context.env);
  const started = performance.now();
  runScript('scripts/adopt.ts', [], { ...context.env, DATABASE_URL: databaseUrl });
  const seconds = (performance.now() - started) / 1000;
  console.log(`adopted in ${seconds.toFixed(1)} s (target < ${ADOPTION_TARGET_SECONDS} s)`);
  return seconds < ADOPTION_TARGET_SECONDS;
}

/**
 * Data in and out at a shop's size: the export of a million listings as CSV in bounded memory, an
 * import of 5,000 rows in time, and the adoption of an original database of a million listings.
 */
export async function benchBulk(context: BenchContext): Promise<boolean> {
  const imported = await benchImport(context);
  const exported = await benchExport(context);
  const adopted = await benchAdoption(context);
  return imported && exported && adopted;
}
