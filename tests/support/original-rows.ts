import fs from 'node:fs';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import sharp from 'sharp';
import type { RawDatabase } from './original-database.js';

/**
 * A small shop as the original service stored it (Prisma-style rows: text UUID ids, `timestamp(3)`
 * in UTC, bcrypt cost 12 hashes, images as local paths of its upload folder and image-host URLs),
 * with the ids and values the adoption tests check afterwards.
 */
export const ORIGINAL = {
  admin: { id: '7d0f3c1e-2b4a-4c5d-8e6f-0a1b2c3d4e5f', email: 'Owner@Shop.example', password: 'original-admin-password' },
  agent: { id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d', email: 'selam@shop.example', password: 'original-agent-password' },
  goneCreatorId: '0f0e0d0c-0b0a-4909-8807-060504030201',
  category: { id: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f' },
  /** Available, two local photos (one stored without the leading slash), stock 0 from before the original had stock. */
  localPhotos: {
    id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    files: ['1717238400000-a1b2c3d4-iphone.webp', '1717238400001-e5f6a7b8-iphone.webp'],
    stored: ['uploads/1717238400000-a1b2c3d4-iphone.webp', '/uploads/1717238400001-e5f6a7b8-iphone.webp'],
    messageId: 4242,
    createdAt: '2026-06-20 10:00:00.123',
  },
  /** Available, one image-host photo, no description. */
  hostedPhoto: {
    id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
    image: 'https://res.cloudinary.com/shop/image/upload/v1718000000/brostechnology/listings/galaxy.webp',
    messageId: 4250,
    createdAt: '2026-06-21 09:30:00.000',
  },
  /** Sold out. */
  sold: { id: '3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f', createdAt: '2026-06-19 08:00:00.000' },
  notification: { id: '4d5e6f7a-8b9c-4d0e-9f2a-3b4c5d6e7f80' },
  codes: { unused: '111111', used: '222222', expired: '333333', orphaned: '444444' },
  botToken: '900000777:AAOriginalServiceBotToken_abcdefghij',
  channelId: '-1001234500077',
  resetCode: '654321',
} as const;

const LOGS = [
  { id: '6f7a8b9c-0d1e-4f2a-8b4c-5d6e7f8a9b0c', listingId: ORIGINAL.localPhotos.id, messageId: ORIGINAL.localPhotos.messageId, status: 'SUCCESS' },
  { id: '7a8b9c0d-1e2f-4a3b-9c5d-6e7f8a9b0c1d', listingId: ORIGINAL.hostedPhoto.id, messageId: ORIGINAL.hostedPhoto.messageId, status: 'SUCCESS' },
  { id: '8b9c0d1e-2f3a-4b4c-8d6e-7f8a9b0c1d2e', listingId: ORIGINAL.sold.id, messageId: null, status: 'PENDING' },
] as const;

/** Writes the local photos into the original's upload folder, answering each file's bytes. */
export async function writeOriginalUploads(uploadDir: string): Promise<Buffer[]> {
  fs.mkdirSync(uploadDir, { recursive: true });
  const colors = ['#c0392b', '#2980b9'];
  return Promise.all(
    ORIGINAL.localPhotos.files.map(async (file, index) => {
      const image = await sharp({ create: { width: 32, height: 24, channels: 3, background: colors[index]! } }).webp().toBuffer();
      fs.writeFileSync(path.join(uploadDir, file), image);
      return image;
    }),
  );
}

/**
 * Fills an original-schema database with the shop above; `outsideMigrations` says whether it has
 * what only the original's schema file makes (agent codes, settings, inquiry counts, an optional description).
 */
export async function insertOriginalRows(db: RawDatabase, outsideMigrations = true): Promise<void> {
  const [adminHash, agentHash] = await Promise.all([bcrypt.hash(ORIGINAL.admin.password, 12), bcrypt.hash(ORIGINAL.agent.password, 12)]);
  await db.query(
    `INSERT INTO users (id, email, password, name, phone, role, "createdAt", "updatedAt") VALUES ($1, $2, $3, 'Shop Owner', '+251911000001', 'SUPER_ADMIN', '2026-06-01 08:00:00.000', '2026-06-01 08:00:00.000')`,
    [ORIGINAL.admin.id, ORIGINAL.admin.email, adminHash],
  );
  await db.query(
    `INSERT INTO users (id, email, password, name, phone, role, "profileImage", facebook, twitter, instagram, linkedin, telegram, whatsapp, tiktok, youtube, website,
       "customSocials", "passwordResetToken", "passwordResetExpires", "telegramChatId", "telegramConnected", "telegramUsername", "createdAt", "updatedAt")
     VALUES ($1, $2, $3, 'Selam Tesfaye', '+251911000002', 'AGENT', 'uploads/1717000000000-avatar.webp',
       'https://facebook.com/selam', 'https://x.com/selam', 'https://instagram.com/selam', 'https://linkedin.com/in/selam', 'https://t.me/selam',
       'https://wa.me/251911000002', 'https://tiktok.com/@selam', 'https://youtube.com/@selam', 'https://selam.example',
       '[{"key": "Blog", "value": "https://blog.selam.example"}]', $4, now() + interval '10 minutes', '99887766', true, 'selam_t',
       '2026-06-02 09:00:00.000', '2026-06-02 09:00:00.000')`,
    [ORIGINAL.agent.id, ORIGINAL.agent.email, agentHash, ORIGINAL.resetCode],
  );
  await db.query(
    `INSERT INTO categories (id, name, "displayName", icon, "schemaRules", "updatedAt") VALUES ($1, 'PHONES', 'Phones', 'smartphone',
       '[{"field": "brand", "type": "string", "required": true}, {"field": "condition", "type": "select", "options": ["New", "Used"]}]', '2026-06-01 08:00:00.000')`,
    [ORIGINAL.category.id],
  );
  const insertListing = async (row: Record<string, unknown>) => {
    const values: Record<string, unknown> = { ...row, updatedAt: row.createdAt };
    if (!outsideMigrations) delete values.inquiryClicks;
    const columns = Object.keys(values);
    await db.query(
      `INSERT INTO listings (${columns.map((column) => `"${column}"`).join(', ')}) VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')})`,
      Object.values(values),
    );
  };
  const listing = { categoryId: ORIGINAL.category.id, agentId: ORIGINAL.agent.id };
  await insertListing({
    ...listing, id: ORIGINAL.localPhotos.id, title: 'iPhone 13, 128GB', description: 'Clean, with its box', price: '650.00', status: 'AVAILABLE',
    images: ORIGINAL.localPhotos.stored, attributes: JSON.stringify({ brand: 'Apple', condition: 'Used' }), customTelegramCaption: 'Old caption: iPhone 13',
    viewsCount: 7, inquiryClicks: 3, stockQuantity: 0, commissionPercent: '5.50', createdAt: ORIGINAL.localPhotos.createdAt,
  });
  await insertListing({
    ...listing, id: ORIGINAL.hostedPhoto.id, title: 'Galaxy S22', description: outsideMigrations ? null : '', price: '480.00', status: 'AVAILABLE',
    images: [ORIGINAL.hostedPhoto.image], attributes: JSON.stringify({ brand: 'Samsung', condition: 'New' }),
    viewsCount: 2, inquiryClicks: 0, stockQuantity: 2, createdAt: ORIGINAL.hostedPhoto.createdAt,
  });
  await insertListing({
    ...listing, id: ORIGINAL.sold.id, title: 'Pixel 7', description: 'Sold last week', price: '300.00', status: 'SOLD', images: null,
    attributes: JSON.stringify({ brand: 'Google', condition: 'Used' }), viewsCount: 40, inquiryClicks: 9, stockQuantity: 0, commissionPercent: '10.00',
    createdAt: ORIGINAL.sold.createdAt,
  });
  await db.query(
    `INSERT INTO syndication_configs (id, platform, "botToken", "channelId", "isActive", "updatedAt") VALUES ('9c0d1e2f-3a4b-4c5d-8e7f-8a9b0c1d2e3f', 'TELEGRAM', $1, $2, true, '2026-06-11 21:00:00.000')`,
    [ORIGINAL.botToken, ORIGINAL.channelId],
  );
  for (const [index, log] of LOGS.entries()) {
    await db.query(
      `INSERT INTO syndication_logs (id, "listingId", platform, status, action, "channelInfo", "messageId", "runAt") VALUES ($1, $2, 'TELEGRAM', $3, 'NEW_POST', $4, $5, $6)`,
      [log.id, log.listingId, log.status, ORIGINAL.channelId, log.messageId, `2026-06-22 12:00:0${LOGS.length - index}.000`],
    );
  }
  await db.query(
    `INSERT INTO notifications (id, "userId", title, body, type, data, "createdAt") VALUES ($1, $2, 'Listing created', 'Your listing "iPhone 13, 128GB" is live.', 'LISTING_CREATED', $3, '2026-06-20 10:00:01+00')`,
    [ORIGINAL.notification.id, ORIGINAL.agent.id, JSON.stringify({ listingId: ORIGINAL.localPhotos.id })],
  );
  if (!outsideMigrations) return;
  const code = `INSERT INTO agent_codes (id, code, "createdById", "agentName", "agentPhone", "isUsed", "usedById", "expiresAt", "createdAt") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '2026-06-01 08:00:00.000')`;
  const inADay = "(now() at time zone 'utc') + interval '1 day'";
  await db.query(code.replace('$8', inADay), ['a0b1c2d3-e4f5-4a6b-8c7d-8e9f0a1b2c3d', ORIGINAL.codes.unused, ORIGINAL.admin.id, 'Abebe', '+251911000003', false, null]);
  await db.query(code.replace('$8', inADay), ['b1c2d3e4-f5a6-4b7c-9d8e-9f0a1b2c3d4e', ORIGINAL.codes.used, ORIGINAL.admin.id, 'Selam', null, true, ORIGINAL.agent.id]);
  await db.query(code.replace('$8', "'2026-06-01 08:30:00.000'"), ['c2d3e4f5-a6b7-4c8d-8e9f-0a1b2c3d4e5f', ORIGINAL.codes.expired, ORIGINAL.admin.id, null, null, false, null]);
  await db.query(code.replace('$8', inADay), ['d3e4f5a6-b7c8-4d9e-9f0a-1b2c3d4e5f60', ORIGINAL.codes.orphaned, ORIGINAL.goneCreatorId, 'Nobody', null, false, null]);
  const setting = `INSERT INTO settings (key, value, "updatedAt") VALUES ($1, $2, '2026-06-05 08:00:00.000')`;
  for (const [key, value] of Object.entries({
    siteName: 'Bros Technology',
    whatsappNumber: '+251911000009',
    telegramHandle: 'brostech',
    facebookUrl: 'https://facebook.com/brostech',
    instagramUrl: 'https://instagram.com/brostech',
    location: 'Bole, Addis Ababa',
    tiktokUrl: 'https://tiktok.com/@brostech',
    miniAppUrl: 'https://t.me/brostech_bot/app',
  })) {
    await db.query(setting, [key, JSON.stringify(value)]);
  }
}
