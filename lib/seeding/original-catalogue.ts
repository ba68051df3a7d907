import bcrypt from 'bcryptjs';
import { DEFAULT_CATEGORIES } from '../categories/default-categories.js';
import type { SchemaRule } from '../db/schema.js';
import type { SqlSession } from './original-schema-build.js';
import { between, pick, randomSource, type Random } from './random-source.js';
import { generateListing, listingCreatedAt, pickCategory, type NewListing } from './realistic-catalogue.js';

/**
 * Fills a database holding the original service's schema with a shop as that service stored it,
 * its listings the realistic catalogue's: Prisma-style rows (text UUID ids, `timestamp(3)` in UTC),
 * administrators and agents (bcrypt cost 12, socials, the bot sign-in columns), its categories, the
 * channel config and a posting log per listing, notifications, agent codes and its settings. Rows
 * go in by the thousand, each batch one statement over arrays, while the next batch is generated.
 */

/** Every generated account's password. */
export const ORIGINAL_PASSWORD = 'original-password';
export const ORIGINAL_ADMIN_EMAIL = 'owner@shop.example';

export interface OriginalShopOptions {
  listings: number;
  agents: number;
  seed: number;
  /** Called after each batch with the listings written so far. */
  onProgress?: (done: number) => void;
}

/** Listings per statement: a few megabytes of arrays, the next batch generated while it runs. */
const BATCH = 5_000;
/** The original's bcrypt cost, which its passwords keep. */
const BCRYPT_COST = 12;
const CHANNEL_ID = '-1001234500077';

/** A version 4 UUID drawn from the seeded source, so a seed gives the same ids every time. */
function uuid(random: Random): string {
  let hex = '';
  for (let index = 0; index < 4; index += 1) hex += Math.floor(random() * 0x1_0000_0000).toString(16).padStart(8, '0');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A `timestamp(3)` value as Prisma stores it: UTC, without a zone. */
function timestamp(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

/** A Postgres array literal of text, for one row's `text[]` sent inside an array of them. */
function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`).join(',')}}`;
}

/** Rows as columns: one array per column, sent as one parameter each and unnested in the statement. */
class Columns {
  private readonly values: unknown[][];

  constructor(private readonly names: readonly string[]) {
    this.values = names.map(() => []);
  }

  get size(): number {
    return this.values[0]!.length;
  }

  add(row: readonly unknown[]): void {
    for (let index = 0; index < row.length; index += 1) this.values[index]!.push(row[index]);
  }

  /** Writes the rows: `types` are the columns' Postgres types, `selected` what each becomes in the table. */
  async insertInto(db: SqlSession, table: string, types: readonly string[], selected: readonly string[] = this.names.map((name) => `"${name}"`)): Promise<void> {
    if (this.size === 0) return;
    const unnested = types.map((type, index) => `$${index + 1}::${type}[]`).join(', ');
    const aliases = this.names.map((name) => `"${name}"`).join(', ');
    await db.query(`INSERT INTO "${table}" (${aliases}) SELECT ${selected.join(', ')} FROM unnest(${unnested}) AS row(${aliases})`, this.values);
  }
}

interface Shop {
  adminIds: string[];
  agentIds: string[];
  categories: Array<{ id: string; name: string; schemaRules: SchemaRule[] }>;
}

/** The original stored rules without `required` where a field was optional. */
function originalRules(rules: readonly SchemaRule[]): Array<Record<string, unknown>> {
  return rules.map(({ required, ...rule }) => (required ? { ...rule, required } : rule));
}

const FIRST_NAMES = ['Selam', 'Dawit', 'Hanna', 'Abebe', 'Meron', 'Yonas', 'Tigist', 'Samuel', 'Bethlehem', 'Kaleb', 'Hiwot', 'Biniam', 'Liya', 'Natnael', 'Ruth', 'Mikias', 'Saron', 'Eyob', 'Mahlet', 'Henok'];
const LAST_NAMES = ['Tesfaye', 'Bekele', 'Girma', 'Alemu', 'Haile', 'Tadesse', 'Kebede', 'Mekonnen', 'Assefa', 'Wolde', 'Getachew', 'Desta', 'Abera', 'Negash', 'Demissie'];

async function insertUsers(db: SqlSession, random: Random, agents: number, since: number): Promise<Pick<Shop, 'adminIds' | 'agentIds'>> {
  const hash = await bcrypt.hash(ORIGINAL_PASSWORD, BCRYPT_COST);
  const columns = new Columns([
    'id', 'email', 'password', 'name', 'phone', 'role', 'profileImage', 'facebook', 'telegram', 'whatsapp', 'tiktok', 'website', 'customSocials',
    'passwordResetToken', 'passwordResetExpires', 'telegramChatId', 'telegramConnected', 'telegramUsername', 'telegramFirstName', 'telegramPhotoUrl',
    'createdAt', 'updatedAt',
  ]);
  const adminIds = [uuid(random), uuid(random)];
  const agentIds = Array.from({ length: agents }, () => uuid(random));
  const accounts = [
    ...adminIds.map((id, index) => ({ id, role: 'SUPER_ADMIN', email: index === 0 ? 'Owner@Shop.example' : 'manager@shop.example', name: index === 0 ? 'Shop Owner' : 'Shop Manager' })),
    ...agentIds.map((id, index) => {
      const first = FIRST_NAMES[index % FIRST_NAMES.length]!;
      const last = LAST_NAMES[Math.floor(index / FIRST_NAMES.length) % LAST_NAMES.length]!;
      return { id, role: 'AGENT', email: `${first}.${last}${index >= FIRST_NAMES.length * LAST_NAMES.length ? index : ''}@shop.example`.toLowerCase(), name: `${first} ${last}` };
    }),
  ];
  for (const [index, account] of accounts.entries()) {
    const handle = account.email.split('@')[0]!.replace(/\W/g, '_');
    const social = random() < 0.6;
    const bot = random() < 0.6;
    const createdAt = timestamp(new Date(since + index * 3_600_000));
    columns.add([
      account.id, account.email, hash, account.name, `+2519${between(random, 10_000_000, 99_999_999)}`, account.role,
      random() < 0.5 ? `uploads/${since + index}-avatar.webp` : null,
      social ? `https://facebook.com/${handle}` : null, social ? `https://t.me/${handle}` : null, social ? `https://wa.me/2519${between(random, 10_000_000, 99_999_999)}` : null,
      social && random() < 0.3 ? `https://tiktok.com/@${handle}` : null, social && random() < 0.2 ? `https://${handle}.example` : null,
      JSON.stringify(social && random() < 0.2 ? [{ key: 'Shop', value: `https://shop.example/${handle}` }] : []),
      index === accounts.length - 1 ? String(between(random, 100_000, 999_999)) : null, index === accounts.length - 1 ? timestamp(new Date(Date.now() + 600_000)) : null,
      bot ? String(between(random, 100_000_000, 999_999_999)) : null, bot, bot ? handle : null, bot ? account.name.split(' ')[0] : null,
      bot ? `https://t.me/i/userpic/320/${handle}.jpg` : null,
      createdAt, createdAt,
    ]);
  }
  await columns.insertInto(db, 'users', [
    'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text',
    'text', 'timestamp(3)', 'text', 'boolean', 'text', 'text', 'text', 'timestamp(3)', 'timestamp(3)',
  ], [
    'id', 'email', 'password', 'name', 'phone', 'role::"Role"', '"profileImage"', 'facebook', 'telegram', 'whatsapp', 'tiktok', 'website', '"customSocials"::jsonb',
    '"passwordResetToken"', '"passwordResetExpires"', '"telegramChatId"', '"telegramConnected"', '"telegramUsername"', '"telegramFirstName"', '"telegramPhotoUrl"',
    '"createdAt"', '"updatedAt"',
  ]);
  return { adminIds, agentIds };
}

async function insertCategories(db: SqlSession, random: Random, since: number): Promise<Shop['categories']> {
  const categories = DEFAULT_CATEGORIES.map((category) => ({ id: uuid(random), name: category.name, schemaRules: category.schemaRules }));
  const columns = new Columns(['id', 'name', 'displayName', 'icon', 'schemaRules', 'createdAt', 'updatedAt']);
  for (const [index, category] of DEFAULT_CATEGORIES.entries()) {
    const at = timestamp(new Date(since));
    columns.add([categories[index]!.id, category.name, category.displayName, category.icon, JSON.stringify(originalRules(category.schemaRules)), at, at]);
  }
  await columns.insertInto(db, 'categories', ['text', 'text', 'text', 'text', 'text', 'timestamp(3)', 'timestamp(3)'], ['id', 'name', '"displayName"', 'icon', '"schemaRules"::jsonb', '"createdAt"', '"updatedAt"']);
  return categories;
}

/** Where the original kept a photo: its upload folder (some paths stored without the leading slash) or the image host. */
function originalImages(random: Random, listing: NewListing, createdAt: number): string[] {
  return (listing.images ?? []).map((_, index) => {
    const file = `${createdAt + index}-${Math.floor(random() * 0xffffffff).toString(16).padStart(8, '0')}.webp`;
    const where = random();
    if (where < 0.35) return `https://res.cloudinary.com/shop/image/upload/v${Math.floor(createdAt / 1000)}/shop/listings/${file}`;
    return where < 0.4 ? `uploads/${file}` : `/uploads/${file}`;
  });
}

const LISTING_COLUMNS = [
  'id', 'title', 'description', 'price', 'status', 'images', 'attributes', 'customTelegramCaption', 'categoryId', 'agentId',
  'viewsCount', 'inquiryClicks', 'stockQuantity', 'commissionPercent', 'createdAt', 'updatedAt',
];
const LISTING_TYPES = ['text', 'text', 'text', 'numeric', 'text', 'text', 'text', 'text', 'text', 'text', 'int4', 'int4', 'int4', 'numeric', 'timestamp(3)', 'timestamp(3)'];
const LISTING_SELECTED = [
  'id', 'title', 'description', 'price', 'status::"ListingStatus"', 'images::text[]', 'attributes::jsonb', '"customTelegramCaption"', '"categoryId"', '"agentId"',
  '"viewsCount"', '"inquiryClicks"', '"stockQuantity"', '"commissionPercent"', '"createdAt"', '"updatedAt"',
];
const LOG_COLUMNS = ['id', 'listingId', 'platform', 'status', 'action', 'channelInfo', 'messageId', 'errorMessage', 'runAt'];
const LOG_TYPES = ['text', 'text', 'text', 'text', 'text', 'text', 'int4', 'text', 'timestamp(3)'];
const LOG_SELECTED = ['id', '"listingId"', 'platform', 'status::"SyndicationStatus"', 'action::"SyndicationAction"', '"channelInfo"', '"messageId"', '"errorMessage"', '"runAt"'];
const NOTIFICATION_COLUMNS = ['id', 'userId', 'title', 'body', 'type', 'data', 'isRead', 'createdAt'];
const NOTIFICATION_TYPES = ['text', 'text', 'text', 'text', 'text', 'text', 'boolean', 'timestamptz'];
const NOTIFICATION_SELECTED = ['id', '"userId"', 'title', 'body', 'type', 'data::jsonb', '"isRead"', '"createdAt"'];

const POST_FAILURES = ['ETELEGRAM: 429: Too Many Requests: retry after 35', 'ETELEGRAM: 400: Bad Request: wrong file identifier/HTTP URL specified', 'ETIMEDOUT'];

interface Batch {
  listings: Columns;
  logs: Columns;
  notifications: Columns;
}

/** The channel's posts so far: each successful post got the next message id. */
interface Channel {
  nextMessageId: number;
}

/** Rows generated between two turns of the event loop, so the previous batch's statement keeps streaming out. */
const ROWS_PER_TURN = 500;

async function makeBatch(random: Random, shop: Shop, channel: Channel, size: number, now: number): Promise<Batch> {
  const batch: Batch = { listings: new Columns(LISTING_COLUMNS), logs: new Columns(LOG_COLUMNS), notifications: new Columns(NOTIFICATION_COLUMNS) };
  for (let index = 0; index < size; index += 1) {
    if (index % ROWS_PER_TURN === ROWS_PER_TURN - 1) await new Promise((resolve) => setImmediate(resolve));
    const createdAt = listingCreatedAt(random, now);
    const listing = generateListing(random, pickCategory(random, shop.categories), shop.agentIds, createdAt);
    const id = uuid(random);
    const at = createdAt.getTime();
    const created = timestamp(createdAt);
    // Listings made before the original had stock kept 0 while on sale.
    const stock = listing.status === 'AVAILABLE' && random() < 0.1 ? 0 : listing.stockQuantity;
    batch.listings.add([
      id, listing.title, random() < 0.02 ? null : listing.description, listing.price.toFixed(2), listing.status,
      textArrayLiteral(originalImages(random, listing, at)), JSON.stringify(listing.attributes),
      random() < 0.03 ? `${listing.title}\n${listing.price.toLocaleString('en-US')} ETB` : null, listing.categoryId, listing.agentId,
      listing.viewsCount, listing.inquiryClicks, stock, listing.commissionPercent === null || listing.commissionPercent === undefined ? null : listing.commissionPercent.toFixed(2),
      created, created,
    ]);
    const post = random();
    const status = post < 0.9 ? 'SUCCESS' : post < 0.97 ? 'FAILED' : 'PENDING';
    batch.logs.add([
      uuid(random), id, 'TELEGRAM', status, 'NEW_POST', CHANNEL_ID, status === 'SUCCESS' ? channel.nextMessageId++ : null,
      status === 'FAILED' ? pick(random, POST_FAILURES) : null, timestamp(new Date(at + 2_000)),
    ]);
    if (status === 'SUCCESS' && random() < 0.1) {
      batch.logs.add([uuid(random), id, 'TELEGRAM', 'SUCCESS', 'EDITED', CHANNEL_ID, channel.nextMessageId - 1, null, timestamp(new Date(at + 86_400_000))]);
    }
    if (listing.agentId && random() < 0.2) {
      batch.notifications.add([
        uuid(random), listing.agentId, 'Listing created', `Your listing "${listing.title}" is live.`, 'LISTING_CREATED',
        JSON.stringify({ listingId: id }), random() < 0.7, new Date(at + 1_000).toISOString(),
      ]);
    }
  }
  return batch;
}

async function writeBatch(db: SqlSession, batch: Batch): Promise<void> {
  await batch.listings.insertInto(db, 'listings', LISTING_TYPES, LISTING_SELECTED);
  await batch.logs.insertInto(db, 'syndication_logs', LOG_TYPES, LOG_SELECTED);
  await batch.notifications.insertInto(db, 'notifications', NOTIFICATION_TYPES, NOTIFICATION_SELECTED);
}

async function insertChannelConfig(db: SqlSession, random: Random, since: string): Promise<void> {
  await db.query(
    `INSERT INTO syndication_configs (id, platform, "botToken", "channelId", "isActive", "createdAt", "updatedAt") VALUES ($1, 'TELEGRAM', $2, $3, true, $4, $4)`,
    [uuid(random), `${between(random, 100_000_000, 999_999_999)}:AAOriginalShopBotToken_${uuid(random).slice(0, 8)}`, CHANNEL_ID, since],
  );
}

/** Codes each agent registered with, and some still open or expired, as the original left them. */
async function insertAgentCodes(db: SqlSession, random: Random, shop: Shop, since: string): Promise<void> {
  const columns = new Columns(['id', 'code', 'createdById', 'agentName', 'agentPhone', 'isUsed', 'usedById', 'expiresAt', 'createdAt']);
  const codes = new Set<string>();
  const code = () => {
    for (;;) {
      const candidate = String(between(random, 100_000, 999_999));
      if (!codes.has(candidate)) return codes.add(candidate) && candidate;
    }
  };
  const inADay = timestamp(new Date(Date.now() + 86_400_000));
  for (const agentId of shop.agentIds) columns.add([uuid(random), code(), shop.adminIds[0], null, null, true, agentId, since, since]);
  for (let index = 0; index < 10; index += 1) columns.add([uuid(random), code(), pick(random, shop.adminIds), pick(random, FIRST_NAMES), null, false, null, inADay, since]);
  for (let index = 0; index < 20; index += 1) columns.add([uuid(random), code(), pick(random, shop.adminIds), null, null, false, null, since, since]);
  await columns.insertInto(db, 'agent_codes', ['text', 'text', 'text', 'text', 'text', 'boolean', 'text', 'timestamp(3)', 'timestamp(3)'], [
    'id', 'code', '"createdById"', '"agentName"', '"agentPhone"', '"isUsed"', '"usedById"', '"expiresAt"', '"createdAt"',
  ]);
}

/** The original's settings, under its own key names. */
async function insertSettings(db: SqlSession, since: string): Promise<void> {
  const settings: Record<string, string> = {
    siteName: 'Bole Gadget Market',
    whatsappNumber: '+251911200300',
    telegramHandle: 'bolegadgets',
    facebookUrl: 'https://facebook.com/bolegadgets',
    instagramUrl: 'https://instagram.com/bolegadgets',
    location: 'Bole Road, Addis Ababa',
    tiktokUrl: 'https://tiktok.com/@bolegadgets',
    miniAppUrl: 'https://t.me/bolegadgets_bot/app',
  };
  for (const [key, value] of Object.entries(settings)) await db.query(`INSERT INTO settings (key, value, "updatedAt") VALUES ($1, $2::jsonb, $3)`, [key, JSON.stringify(value), since]);
}

/** Fills the original's (empty) tables with a shop of `listings` listings; the same seed gives the same rows. */
export async function fillOriginalDatabase(db: SqlSession, options: OriginalShopOptions): Promise<void> {
  const random = randomSource(options.seed);
  const now = Date.now();
  const openedAt = now - 2 * 365 * 86_400_000 - 30 * 86_400_000;
  const opened = timestamp(new Date(openedAt));
  const users = await insertUsers(db, random, options.agents, openedAt);
  const shop: Shop = { ...users, categories: await insertCategories(db, random, openedAt) };
  await insertChannelConfig(db, random, opened);
  const channel: Channel = { nextMessageId: 1 };
  let pending: Promise<void> | undefined;
  for (let done = 0; done < options.listings; ) {
    const size = Math.min(BATCH, options.listings - done);
    const batch = await makeBatch(random, shop, channel, size, now);
    await pending;
    if (done > 0) options.onProgress?.(done);
    pending = writeBatch(db, batch);
    // Awaited before the next batch; handled now so a failure does not end the process while that batch is made.
    pending.catch(() => undefined);
    done += size;
  }
  await pending;
  options.onProgress?.(options.listings);
  await insertAgentCodes(db, random, shop, opened);
  await insertSettings(db, opened);
}
