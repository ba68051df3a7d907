import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The image bytes a shopper's phone downloads for one storefront page of 24 cards: each card's
 * `hero` (the stored photo, up to 1200 px wide) against the 320 px copy in its `heroPhoto.srcset`
 * that a card about 300 px wide picks. Runs on the demo store's photos (`npm run seed:demo`), in
 * an embedded database and upload folder of its own, served by the local server, and fetches
 * every photo over HTTP as a browser would.
 */
const CARDS = 24;
const CARD_WIDTH = 320;

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-photo-bytes-'));
Object.assign(process.env, {
  DATABASE_URL: '',
  DATABASE_DRIVER: '',
  DATA_DIR: path.join(workDir, 'data'),
  UPLOAD_DIR: path.join(workDir, 'uploads'),
  STORAGE_PROVIDER: 'local',
  LOG_LEVEL: 'silent',
});

interface Card {
  hero: string | null;
  heroPhoto: { srcset: string } | null;
}

/** The srcset candidate a card of CARD_WIDTH CSS pixels at 1x takes: the narrowest at least that wide, else the widest. */
function cardCopy(srcset: string): string {
  const candidates = srcset.split(', ').map((candidate) => {
    const [url, descriptor] = candidate.split(' ');
    return { url: url!, width: Number.parseInt(descriptor ?? '0', 10) };
  });
  return (candidates.find((candidate) => candidate.width >= CARD_WIDTH) ?? candidates.at(-1)!).url;
}

async function bytesOf(url: string): Promise<number> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.arrayBuffer()).byteLength;
}

async function main(): Promise<void> {
  const { createLocalServer } = await import('../lib/local-server/server.js');
  const server = createLocalServer({ projectRoot: process.cwd() });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.API_BASE_URL = baseUrl;
  const { runMigrations } = await import('../lib/db/migrate.js');
  const { closeDb, getDb } = await import('../lib/db/client.js');
  const { seedDemoStore } = await import('../lib/seeding/demo-store.js');
  try {
    await runMigrations();
    // About four in five demo listings are available: enough listings that the page is full.
    await seedDemoStore(await getDb(), { listings: CARDS + 12, seed: 7 });
    const page = (await (await fetch(`${baseUrl}/api/public/listings?limit=${CARDS}`)).json()) as { data: Card[] };
    const cards = page.data.filter((card) => card.hero !== null && card.heroPhoto !== null);
    let heroBytes = 0;
    let copyBytes = 0;
    for (const card of cards) {
      heroBytes += await bytesOf(card.hero!);
      copyBytes += await bytesOf(cardCopy(card.heroPhoto!.srcset));
    }
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
    console.log(`\n## Photo bytes: one storefront page of ${cards.length} cards (${CARD_WIDTH} px wide) on the demo store's photos\n`);
    console.log('| what the card loads | bytes | per card |');
    console.log('|---|---|---|');
    console.log(`| hero (stored photo) | ${kb(heroBytes)} | ${kb(heroBytes / cards.length)} |`);
    console.log(`| heroPhoto ${CARD_WIDTH}w copy | ${kb(copyBytes)} | ${kb(copyBytes / cards.length)} |`);
    console.log(`\nheroPhoto's ${CARD_WIDTH} px copy is ${((copyBytes / heroBytes) * 100).toFixed(0)}% of the hero bytes (${(heroBytes / copyBytes).toFixed(1)}x fewer).`);
  } finally {
    server.closeAllConnections();
    server.close();
    await closeDb();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
