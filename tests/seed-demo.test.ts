import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { count, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { listings, users } from '../lib/db/schema.js';
import { DEMO_AGENT_PASSWORD, DEMO_AGENTS, seedDemoStore } from '../lib/seeding/demo-store.js';
import { commandDatabase } from './support/command-database.js';
import { photoRecordsOf } from './support/photos.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const run = promisify(execFile);
const projectRoot = path.resolve(import.meta.dirname, '..');
const demoEmails = DEMO_AGENTS.map((agent) => agent.email);

const server = useTestServer();
const api = server.api;
const shop = useShop(server);

async function demoAgentCount(): Promise<number> {
  const [row] = await server.db.select({ total: count() }).from(users).where(inArray(users.email, demoEmails));
  return row!.total;
}

async function demoListings() {
  const agents = await server.db.select({ id: users.id }).from(users).where(inArray(users.email, demoEmails));
  return server.db.select().from(listings).where(inArray(listings.agentId, agents.map((agent) => agent.id)));
}

describe('seedDemoStore', () => {
  it('makes the default categories, three agents, the settings and listings with processed photos', async () => {
    const progress: number[] = [];
    const outcome = await seedDemoStore(server.db, { listings: 4, onProgress: ({ done }) => progress.push(done) });
    expect(outcome).toMatchObject({ agentsCreated: 3, listingsCreated: 4, listingsTotal: 4 });
    expect(outcome.categoriesCreated).toEqual(['PHONES', 'TABLETS_LAPTOPS', 'LAPTOPS', 'EARBUDS', 'SMARTWATCHES']);
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(await demoAgentCount()).toBe(3);

    const rows = await demoListings();
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.images.length).toBeGreaterThanOrEqual(1);
      expect(row.images.length).toBeLessThanOrEqual(3);
      for (const ref of row.images) {
        expect(ref).toMatch(/^\/uploads\/[\w-]+\.webp$/);
        const stored = await sharp(path.join(server.uploadDir, path.basename(ref))).metadata();
        // A 1600 px wide photo, downscaled to 1200 px WebP by the upload pipeline.
        expect(stored).toMatchObject({ format: 'webp', width: 1200, height: 900 });
      }
      // Described as uploads are: sizes, placeholder and renditions on disk.
      const described = await photoRecordsOf(server.db, row.images);
      expect(described.map((photo) => [photo.width, photo.height, photo.renditions.map((copy) => copy.width)])).toEqual(row.images.map(() => [1200, 900, [320, 640]]));
      for (const copy of described.flatMap((photo) => photo.renditions)) expect(fs.existsSync(path.join(server.uploadDir, copy.ref.slice('/uploads/'.length)))).toBe(true);
    }

    const settings = await api.get('/api/settings');
    expect(settings.body.data).toMatchObject({ siteName: 'Bole Gadget Market', location: 'Bole Road, Addis Ababa' });
    expect(Object.values(settings.body.data).every((value) => value !== '')).toBe(true);
  });

  it('gives the demo agents a login that works, each seeing their own listings', async () => {
    const login = await api.post('/api/auth/login', { json: { email: DEMO_AGENTS[0]!.email, password: DEMO_AGENT_PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.body.data.user).toMatchObject({ email: DEMO_AGENTS[0]!.email, role: 'AGENT' });
    const own = await api.get('/api/listings', { token: login.body.data.token });
    expect(own.status).toBe(200);
    const stored = (await demoListings()).filter((row) => row.agentId === login.body.data.user.id);
    expect(own.body.pagination.total).toBe(stored.length);
    expect(own.body.data.every((listing: { agent: { id: string } }) => listing.agent.id === login.body.data.user.id)).toBe(true);
  });

  it('puts the available demo listings on the storefront, their photos served', async () => {
    const available = (await demoListings()).filter((row) => row.status === 'AVAILABLE');
    expect(available.length).toBeGreaterThan(0);
    const storefront = await api.get('/api/public/listings');
    expect(storefront.status).toBe(200);
    const shown = storefront.body.data.filter((item: { id: string }) => available.some((row) => row.id === item.id));
    expect(shown).toHaveLength(available.length);
    for (const item of shown) {
      const photo = await fetch(new URL(new URL(item.hero).pathname, server.baseUrl));
      expect(photo.status).toBe(200);
      expect(photo.headers.get('content-type')).toBe('image/webp');
    }
  });

  it('run again, tops the listings up and duplicates nothing, keeping settings an administrator set', async () => {
    const token = (await api.post('/api/auth/login', { json: { email: shop.admin.email, password: shop.admin.password } })).body.data.token;
    expect((await api.put('/api/settings', { token, json: { siteName: 'My Own Shop' } })).status).toBe(200);
    const filesBefore = fs.readdirSync(server.uploadDir).length;

    const same = await seedDemoStore(server.db, { listings: 4 });
    expect(same).toMatchObject({ categoriesCreated: [], agentsCreated: 0, settingsFilled: [], listingsCreated: 0, listingsTotal: 4 });
    expect(fs.readdirSync(server.uploadDir)).toHaveLength(filesBefore);

    const more = await seedDemoStore(server.db, { listings: 5 });
    expect(more).toMatchObject({ agentsCreated: 0, listingsCreated: 1, listingsTotal: 5 });
    expect(await demoAgentCount()).toBe(3);
    expect(await demoListings()).toHaveLength(5);
    expect((await api.get('/api/settings')).body.data.siteName).toBe('My Own Shop');
  });
});

describe('npm run seed:demo', () => {
  const runCommand = (args: string[], env: Record<string, string>) =>
    run(process.execPath, ['--import', 'tsx', 'scripts/seed-demo.ts', ...args], {
      cwd: projectRoot,
      env: { ...process.env, LOG_LEVEL: 'silent', STORAGE_PROVIDER: 'local', DATABASE_URL: '', DATABASE_DRIVER: '', ...env },
    });

  it('shows progress and prints the demo agents\' login', async () => {
    const database = await commandDatabase();
    try {
      const { stdout } = await runCommand(['--listings', '2'], database.env);
      expect(stdout).toContain('[1/2]');
      expect(stdout).toContain('[2/2]');
      expect(stdout).toContain('Listings: 2 created, 2 in all for the demo agents.');
      expect(stdout).toContain(`password "${DEMO_AGENT_PASSWORD}"`);
      for (const email of demoEmails) expect(stdout).toContain(email);
      expect(fs.readdirSync(database.env.UPLOAD_DIR!).filter((name) => name.endsWith('.webp')).length).toBeGreaterThanOrEqual(2);
    } finally {
      await database.drop();
    }
  }, 120_000);

  it('refuses a count that is not a whole number from 0 to 500, with the usage', async () => {
    const failure = await runCommand(['--listings', 'many'], {}).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain('--listings must be a whole number from 0 to 500.');
    expect((failure as { stderr: string }).stderr).toContain('Usage: npm run seed:demo');
  });
});
