import { Readable } from 'node:stream';
import { inArray } from 'drizzle-orm/sql/expressions/conditions';
import { count } from 'drizzle-orm/sql/functions/aggregate';
import sharp from 'sharp';
import { hashPassword } from '../auth/passwords.js';
import { seedDefaultCategories } from '../categories/seed.js';
import type { Database } from '../db/client.js';
import { listings, users } from '../db/schema.js';
import { insertListing } from '../listings/queries.js';
import { processImage } from '../media/image-processing.js';
import { recordPhotos } from '../media/photo-records.js';
import { removeImages, renditionFilesWanted, storeImages } from '../media/storage.js';
import { readSettings, writeSettings, type SettingKey } from '../settings/queries.js';
import { ensureDefaultCategories } from './bulk-listings.js';
import { randomSource } from './random-source.js';
import { generateListing } from './realistic-catalogue.js';

/** The demo agents' shared password, printed by `npm run seed:demo` so the store can be tried at once. */
export const DEMO_AGENT_PASSWORD = 'demo-agent-password';

export const DEMO_AGENTS = [
  { email: 'selam.demo@example.com', name: 'Selam Tesfaye', phone: '+251911200301' },
  { email: 'dawit.demo@example.com', name: 'Dawit Bekele', phone: '+251911200302' },
  { email: 'hanna.demo@example.com', name: 'Hanna Girma', phone: '+251911200303' },
];

const DEMO_SETTINGS: Record<SettingKey, string> = {
  siteName: 'Bole Gadget Market',
  chatNumber: '+251911200300',
  callNumber1: '+251911200300',
  callNumber2: '+251116600300',
  messengerHandle: 'bolegadgets',
  contactEmail: 'hello@example.com',
  socialUrl1: 'https://example.com/bolegadgets',
  socialUrl2: 'https://example.org/bolegadgets',
  location: 'Bole Road, Addis Ababa',
  businessHours: 'Mon-Sat 9:00-19:00',
  shopGoogleMapUrl: 'https://maps.example.com/?q=Bole+Road+Addis+Ababa',
  shopMapAddress: 'Bole Road, next to Edna Mall, Addis Ababa',
};

/** Photo backdrops: two colours of a diagonal gradient each. */
const PALETTES: Array<[string, string]> = [
  ['#1e3a8a', '#60a5fa'],
  ['#064e3b', '#34d399'],
  ['#7c2d12', '#fb923c'],
  ['#4c1d95', '#c084fc'],
  ['#111827', '#9ca3af'],
  ['#831843', '#f472b6'],
];

export interface DemoProgress {
  done: number;
  total: number;
  title: string;
}

export interface DemoStoreOptions {
  /** How many listings the demo agents should own in all; only the missing ones are made. */
  listings: number;
  seed?: number;
  onProgress?: (progress: DemoProgress) => void;
}

export interface DemoStoreOutcome {
  categoriesCreated: string[];
  agentsCreated: number;
  settingsFilled: SettingKey[];
  listingsCreated: number;
  listingsTotal: number;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A 1600x1200 JPEG like a phone photo: a gradient with the product's name, so the pipeline has real work to do. */
async function productPhoto(title: string, caption: string, [from, to]: [string, string]): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="1600" height="1200" fill="url(#g)"/>
  <rect x="520" y="260" width="560" height="560" rx="64" fill="#ffffff" fill-opacity="0.18"/>
  <text x="800" y="960" font-family="DejaVu Sans, sans-serif" font-size="68" font-weight="bold" fill="#ffffff" text-anchor="middle">${escapeXml(title)}</text>
  <text x="800" y="1060" font-family="DejaVu Sans, sans-serif" font-size="52" fill="#ffffff" fill-opacity="0.85" text-anchor="middle">${escapeXml(caption)}</text>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** Makes sure the demo agents exist (an existing account is left as it is) and returns their ids. */
async function ensureDemoAgents(db: Database): Promise<{ ids: string[]; created: number }> {
  const password = await hashPassword(DEMO_AGENT_PASSWORD);
  const inserted = await db
    .insert(users)
    .values(DEMO_AGENTS.map((agent) => ({ ...agent, password, role: 'AGENT' as const })))
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  const rows = await db.select({ id: users.id }).from(users).where(inArray(users.email, DEMO_AGENTS.map((agent) => agent.email)));
  return { ids: rows.map((row) => row.id), created: inserted.length };
}

/** Fills the store settings that are still empty; values an administrator set are kept. */
async function fillEmptySettings(db: Database): Promise<SettingKey[]> {
  const current = await readSettings(db);
  const empty = (Object.keys(DEMO_SETTINGS) as SettingKey[]).filter((key) => current[key] === '');
  await writeSettings(db, Object.fromEntries(empty.map((key) => [key, DEMO_SETTINGS[key]])));
  return empty;
}

async function countListingsOf(db: Database, agentIds: string[]): Promise<number> {
  const [row] = await db.select({ total: count() }).from(listings).where(inArray(listings.agentId, agentIds));
  return row?.total ?? 0;
}

/**
 * A small store to try the API on: the default categories, three agents, store settings, and
 * listings whose photos go through the same processing and storage as uploaded ones. Running it
 * again tops the listings up to the requested number and duplicates nothing.
 */
export async function seedDemoStore(db: Database, options: DemoStoreOptions): Promise<DemoStoreOutcome> {
  const { created: categoriesCreated } = await seedDefaultCategories(db);
  const categories = await ensureDefaultCategories(db);
  const agents = await ensureDemoAgents(db);
  const settingsFilled = await fillEmptySettings(db);
  const existing = await countListingsOf(db, agents.ids);
  const missing = Math.max(0, options.listings - existing);
  const random = randomSource((options.seed ?? 7) + existing);
  const now = Date.now();
  for (let index = 0; index < missing; index += 1) {
    const category = categories[index % categories.length]!;
    const createdAt = new Date(now - Math.floor(random() * 60 * 24 * 3600 * 1000));
    const listing = generateListing(random, category, agents.ids, createdAt);
    // A demo storefront shows mostly what can be bought.
    if (random() < 0.8) Object.assign(listing, { status: 'AVAILABLE', stockQuantity: 1 + Math.floor(random() * 4) });
    const palette = PALETTES[Math.floor(random() * PALETTES.length)]!;
    const photos = await Promise.all(
      ['Front', 'Back', 'In the box'].slice(0, 1 + Math.floor(random() * 3)).map((view) => productPhoto(listing.title, view, palette)),
    );
    const processed = [];
    const renditions = await renditionFilesWanted();
    for (const photo of photos) processed.push(await processImage(Readable.from(photo), { renditions }));
    const stored = await storeImages(processed);
    const images = stored.map((image) => image.ref);
    try {
      await insertListing(db, { ...listing, images });
      await recordPhotos(db, stored);
    } catch (error) {
      await removeImages(images);
      throw error;
    }
    options.onProgress?.({ done: index + 1, total: missing, title: listing.title });
  }
  return {
    categoriesCreated,
    agentsCreated: agents.created,
    settingsFilled,
    listingsCreated: missing,
    listingsTotal: existing + missing,
  };
}
