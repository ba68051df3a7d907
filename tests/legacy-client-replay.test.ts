import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listings } from '../lib/db/schema.js';
import { settleDeferredWork } from '../lib/http/deferred-work.js';
import { buildCategory } from './support/catalog-factories.js';
import { buildAdmin, buildAgent, type TestUser } from './support/factories.js';
import type { ApiResponse } from './support/http.js';
import { imageForm, smallPng } from './support/images.js';
import { useLoopbackBotApi } from './support/loopback-bot-api.js';
import { startLoopbackResend, type LoopbackResend } from './support/loopback-resend.js';
import { useTestServer } from './support/test-server.js';

/**
 * The original admin panel and storefront work against this service unchanged. Their main
 * screens' requests, recorded in tests/fixtures/original-client-exchanges.json, are replayed in
 * order over HTTP as a browser sends them (with its CORS preflight), against a shop deployed for
 * them (LEGACY_CLIENT_FIELDS=1); each must succeed and answer what the screen reads.
 */
const RecordedExchange = v.object({
  client: v.picklist(['admin panel', 'storefront']),
  screen: v.string(),
  request: v.object({
    method: v.picklist(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    path: v.pipe(v.string(), v.startsWith('/')),
    headers: v.record(v.string(), v.string()),
    json: v.optional(v.unknown()),
    form: v.optional(v.record(v.string(), v.string())),
  }),
  reads: v.array(v.string()),
  expect: v.optional(v.record(v.string(), v.unknown())),
  keep: v.optional(v.record(v.string(), v.string())),
});
type RecordedExchange = v.InferOutput<typeof RecordedExchange>;

const RecordedExchanges = v.object({ about: v.string(), exchanges: v.array(RecordedExchange) });

const { exchanges } = v.parse(
  RecordedExchanges,
  JSON.parse(fs.readFileSync(new URL('./fixtures/original-client-exchanges.json', import.meta.url), 'utf8')),
);

const BOT_TOKEN = '424242:original-clients-bot';
const CHANNEL_ID = '@example_electronics';

let resend: LoopbackResend;
beforeAll(async () => {
  resend = await startLoopbackResend();
});
afterAll(() => resend.close());
const bot = useLoopbackBotApi({ token: BOT_TOKEN, channelId: CHANNEL_ID });
const server = useTestServer(() => ({
  ...bot.serverEnv(),
  LEGACY_CLIENT_FIELDS: '1',
  RESEND_API_KEY: resend.apiKey,
  RESEND_BASE_URL: resend.baseUrl,
  MAIL_FROM: 'Shop <no-reply@shop.example>',
}));
const api = server.api;

/** The answer fields that carry an image, each an absolute URL. */
const IMAGE_FIELDS = new Set(['images', 'gallery', 'hero', 'profileImage']);

/** What the placeholders of the recording stand for: the shop's values, then what answers gave. */
const values: Record<string, string> = {};
let editedListing: { id: string; storedImages: string[] };

/** The reset code, as the user reads it from the e-mail the forgot-password screen had sent. */
async function resetCodeFromMail(): Promise<string> {
  await settleDeferredWork();
  const mail = resend.sent.findLast((email) => email.to.includes(values.forgetfulEmail!));
  const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
  if (!code) throw new Error('no reset code was e-mailed');
  return code;
}

async function placeholderValue(name: string): Promise<string> {
  if (name === 'resetCode') return resetCodeFromMail();
  const value = values[name];
  if (value === undefined) throw new Error(`the recording names {{${name}}}, which no value or earlier answer gave`);
  return value;
}

async function fillText(text: string): Promise<string> {
  let filled = text;
  for (const [placeholder, name] of text.matchAll(/\{\{(\w+)\}\}/g)) filled = filled.replace(placeholder, await placeholderValue(name!));
  return filled;
}

async function fill<T>(value: T): Promise<T> {
  if (typeof value === 'string') return (await fillText(value)) as T;
  if (Array.isArray(value)) return (await Promise.all(value.map((item) => fill(item)))) as T;
  if (typeof value === 'object' && value !== null) {
    const entries = await Promise.all(Object.entries(value).map(async ([key, item]) => [key, await fill(item)] as const));
    return Object.fromEntries(entries) as T;
  }
  return value;
}

/**
 * The values at a path such as `data[].images[]`: `[]` stands for every item of a list, and a list
 * the path walks through must not be empty (a screen showing nothing proves nothing).
 */
function valuesAt(body: unknown, path: string): unknown[] {
  let found: unknown[] = [body];
  for (const segment of path.split('.')) {
    const eachItem = segment.endsWith('[]');
    const key = eachItem ? segment.slice(0, -2) : segment;
    found = found.flatMap((value) => {
      const child = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
      if (!eachItem) return [child];
      expect(child, `${path}: ${key} is a list`).toBeInstanceOf(Array);
      expect((child as unknown[]).length, `${path}: ${key} has items`).toBeGreaterThan(0);
      return child as unknown[];
    });
  }
  return found;
}

/** Every value an image field of the answer holds, however deep. */
function imagesIn(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(imagesIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    if (!IMAGE_FIELDS.has(key)) return imagesIn(child);
    return (Array.isArray(child) ? child : [child]).filter((image) => image !== null);
  });
}

/** Request headers a browser asks the server about before sending (not CORS-safelisted), lower-cased. */
function nonSafelistedHeaders(headers: Record<string, string>): string[] {
  const simpleContentTypes = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
  return Object.entries(headers)
    .map(([name, value]) => [name.toLowerCase(), value] as const)
    .filter(([name, value]) => {
      if (['origin', 'accept', 'accept-language', 'content-language'].includes(name)) return false;
      return name !== 'content-type' || !simpleContentTypes.includes(value.split(';')[0]!.trim().toLowerCase());
    })
    .map(([name]) => name);
}

/** The CORS preflight a browser on the client's origin sends first, and what it needs to hear to go on. */
async function expectPreflightPasses(origin: string, method: string, path: string, headers: Record<string, string>): Promise<void> {
  const asked = nonSafelistedHeaders(headers);
  if (['GET', 'POST'].includes(method) && asked.length === 0) return;
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': method, ...(asked.length > 0 ? { 'Access-Control-Request-Headers': asked.join(', ') } : {}) },
  });
  expect(response.status, 'preflight').toBeLessThan(300);
  expect(response.headers.get('access-control-allow-origin'), 'preflight').toBe(origin);
  const listed = (name: string) => (response.headers.get(name) ?? '').split(',').map((item) => item.trim().toLowerCase());
  expect(listed('access-control-allow-methods'), 'preflight').toContain(method.toLowerCase());
  for (const header of asked) expect(listed('access-control-allow-headers'), 'preflight').toContain(header);
}

async function send(exchange: RecordedExchange): Promise<ApiResponse> {
  const { method } = exchange.request;
  const path = await fillText(exchange.request.path);
  const headers = await fill(exchange.request.headers);
  const origin = headers.Origin;
  if (origin) await expectPreflightPasses(origin, method, path, headers);
  if (exchange.request.form) {
    const fields = await fill(exchange.request.form);
    return api.send(method, path, { headers, form: imageForm(fields) });
  }
  const body = exchange.request.json === undefined ? undefined : JSON.stringify(await fill(exchange.request.json));
  return api.send(method, path, { headers, ...(body === undefined ? {} : { raw: body }) });
}

const loadedImages = new Set<string>();

/** An image in any answer is an absolute URL on API_BASE_URL (local storage here) that loads from anywhere. */
async function expectLoadableImages(body: unknown): Promise<void> {
  for (const image of imagesIn(body)) {
    expect(typeof image === 'string' && image.startsWith(`${server.baseUrl}/uploads/`), `image ${String(image)}`).toBe(true);
    if (loadedImages.has(image as string)) continue;
    const response = await fetch(image as string);
    expect(response.status, `image ${String(image)}`).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    loadedImages.add(image as string);
  }
}

async function giveProfileImage(user: TestUser): Promise<void> {
  const response = await api.put('/api/auth/me', { token: user.token, form: imageForm({}, [{ field: 'profileImage', bytes: await smallPng(), type: 'image/png', name: 'me.png' }]) });
  expect(response.status).toBe(200);
}

async function createListing(agent: TestUser, categoryId: string, title: string, price: string): Promise<string> {
  const png = await smallPng();
  const attributes = JSON.stringify({ brand: 'Apple', model: title, storage: '256GB' });
  const response = await api.post('/api/listings', { token: agent.token, form: imageForm({ title, price, categoryId, attributes }, [png, png]) });
  expect(response.status).toBe(201);
  return response.body.data.id;
}

async function storedImagesOf(id: string): Promise<string[]> {
  const [row] = await server.db.select({ images: listings.images }).from(listings).where(eq(listings.id, id));
  return row!.images;
}

beforeAll(async () => {
  const admin = await buildAdmin(server.db, { name: 'Hana Girma' });
  const agent = await buildAgent(server.db, { name: 'Dawit Tesfaye' });
  const forgetful = await buildAgent(server.db, { name: 'Meron Alemu' });
  const category = await buildCategory(server.db, { name: 'PHONES', displayName: 'Phones' });
  for (const user of [agent, forgetful]) await giveProfileImage(user);
  const listingId = await createListing(agent, category.id, 'iPhone 13 Pro', '799.99');
  await createListing(agent, category.id, 'iPhone 12', '499');
  // The channel posts of the new listings, which the posting log screen shows.
  await settleDeferredWork();
  editedListing = { id: listingId, storedImages: await storedImagesOf(listingId) };
  Object.assign(values, {
    adminEmail: admin.email,
    adminPassword: admin.password,
    agentEmail: agent.email,
    agentPassword: agent.password,
    forgetfulEmail: forgetful.email,
    listingId,
    categoryId: category.id,
    botToken: BOT_TOKEN,
    channelId: CHANNEL_ID,
  });
});

describe('the original clients, replayed as recorded', () => {
  for (const exchange of exchanges) {
    it(`${exchange.client}, ${exchange.screen}: ${exchange.request.method} ${exchange.request.path}`, async () => {
      const response = await send(exchange);
      expect(response.status, response.text).toBeGreaterThanOrEqual(200);
      expect(response.status, response.text).toBeLessThan(300);
      expect(response.body.success).toBe(true);
      const origin = exchange.request.headers.Origin;
      if (origin) expect(response.headers.get('access-control-allow-origin')).toBe(origin);

      for (const path of exchange.reads) {
        const found = valuesAt(response.body, path);
        const isImage = IMAGE_FIELDS.has(path.split('.').at(-1)!.replace('[]', ''));
        for (const value of found) {
          expect(value, path).not.toBeUndefined();
          if (isImage) expect(value, path).not.toBeNull();
        }
      }
      for (const [path, expected] of Object.entries(await fill(exchange.expect ?? {}))) {
        for (const value of valuesAt(response.body, path)) expect(value, path).toEqual(expected);
      }
      await expectLoadableImages(response.body);

      for (const [name, path] of Object.entries(exchange.keep ?? {})) {
        const [kept] = valuesAt(response.body, path);
        values[name] = typeof kept === 'string' ? kept : JSON.stringify(kept);
      }
    });
  }

  it("kept the edited listing's photos, named as the editor showed them, stored as they were", async () => {
    expect(editedListing.storedImages).toHaveLength(2);
    expect(await storedImagesOf(editedListing.id)).toEqual(editedListing.storedImages);
    expect(JSON.parse(values.shownImages!)).toEqual(editedListing.storedImages.map((ref) => `${server.baseUrl}${ref}`));
  });
});
