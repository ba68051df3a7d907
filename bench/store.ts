import { query, runScript, ensureDatabase, type BenchStore } from './harness.js';

/** The benchmark's administrator, made (or kept) by every prepared store. */
export const BENCH_ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };

/**
 * Creates, migrates and seeds the benchmark database up to `listings` listings, and signs in its
 * administrator and an agent. The project's modules imported here read the benchmark's
 * environment from process.env, which the runner has set.
 */
export async function prepareStore(databaseUrl: string, listings: number, env: NodeJS.ProcessEnv): Promise<BenchStore> {
  await ensureDatabase(databaseUrl);
  const { runMigrations } = await import('../lib/db/migrate.js');
  await runMigrations();
  const [{ count } = { count: '0' }] = await query<{ count: string }>(databaseUrl, 'select count(*) from listings');
  if (Number(count) < listings) runScript('scripts/seed.ts', ['--listings', String(listings - Number(count))], env);

  const { getDb, closeDb } = await import('../lib/db/client.js');
  const { upsertAdmin } = await import('../lib/auth/bootstrap-admin.js');
  const { signToken } = await import('../lib/auth/tokens.js');
  const { catalogueBrowseCeilings } = await import('../lib/seeding/catalogue-prices.js');
  const db = await getDb();
  const admin = await upsertAdmin(db, { ...BENCH_ADMIN, name: 'Bench Admin', phone: '' });
  const browseCeilings = await catalogueBrowseCeilings(db);
  await closeDb();
  const [agent] = await query<{ id: string; email: string }>(databaseUrl, `select id, email from users where role = 'AGENT' order by email limit 1`);
  const [phones] = await query<{ id: string }>(databaseUrl, `select id from categories where name = 'PHONES'`);
  const categories = await query<{ displayName: string }>(databaseUrl, `select "displayName" from categories order by name`);
  const [available] = await query<{ id: string }>(databaseUrl, `select id from listings where status = 'AVAILABLE' order by "createdAt" desc offset 100 limit 1`);
  const store: BenchStore = {
    databaseUrl,
    listings: Math.max(Number(count), listings),
    adminToken: await signToken({ id: admin.id, email: BENCH_ADMIN.email, role: 'SUPER_ADMIN' }),
    agentToken: await signToken({ id: agent!.id, email: agent!.email, role: 'AGENT' }),
    phonesCategoryId: phones!.id,
    categoryNames: categories.map((category) => category.displayName),
    availableListingId: available!.id,
    browseCeilings,
  };
  console.log(`\nBenchmark database ${databaseUrl.replace(/\/\/[^@]*@/, '//')}: ${store.listings.toLocaleString('en-US')} listings`);
  return store;
}
