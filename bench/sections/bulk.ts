import { stringify } from 'csv-stringify/sync';
import { peakRssMb, query, SERVICE_URL, startService, type BenchContext } from '../harness.js';
import { prepareDatabase, scaleDatabaseUrl, SCALE_LISTINGS, tokensAndIds } from './scale.js';

/** The most the service's peak may grow over its idle size while it exports a million listings. */
const EXPORT_GROWTH_TARGET_MB = 150;
/** A file of this many rows imports within one function's time. */
const IMPORT_ROWS = 5000;
const IMPORT_TARGET_SECONDS = 30;

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

/** CSV in and out at a shop's size: the export of a million listings in bounded memory, and an import of 5,000 rows in time. */
export async function benchBulk(context: BenchContext): Promise<boolean> {
  const imported = await benchImport(context);
  const exported = await benchExport(context);
  return imported && exported;
}
