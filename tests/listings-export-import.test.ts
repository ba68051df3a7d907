import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fs from 'node:fs';
import { asc, eq, isNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, listings, type SchemaRule } from '../lib/db/schema.js';
import { onListingEvent, type ListingEvent } from '../lib/events/listing-events.js';
import type { RouteHandler } from '../lib/http/route.js';
import { buildCategory, buildListing } from './support/catalog-factories.js';
import { buildAdmin, buildAgent, type TestUser } from './support/factories.js';
import { expectTooMany } from './support/refusals.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
const shop = useShop(server);
const events: ListingEvent[] = [];

const HOUSE_RULES: SchemaRule[] = [
  { field: 'bedrooms', type: 'number', required: true },
  { field: 'furnished', type: 'boolean', required: false },
  { field: 'condition', type: 'select', required: false, options: ['New', 'Renovated', 'Old'] },
];

let houses: Awaited<ReturnType<typeof buildCategory>>;

beforeAll(async () => {
  onListingEvent(async () => async (event) => {
    events.push(event);
    return undefined;
  });
  houses = await buildCategory(server.db, { name: 'HOUSES_CSV', displayName: 'Houses', schemaRules: HOUSE_RULES });
});

const PHONE_HEADER = ['id', 'title', 'description', 'price', 'stockQuantity', 'status', 'category', 'attr:brand', 'attr:model', 'attr:storage', 'attr:condition', 'attr:batteryHealth', 'attr:hasWarranty', 'images', 'createdAt'];

/** A file as a spreadsheet saves it: RFC 4180, CRLF between rows. */
function csvOf(records: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return stringify(records as Array<Array<string | number>>, { record_delimiter: 'windows' });
}

function recordsOf(text: string): string[][] {
  return parse(text, { bom: true }) as string[][];
}

/** The file's rows as objects by header name. */
function rowsOf(text: string): Array<Record<string, string>> {
  const [header, ...rows] = recordsOf(text);
  return rows.map((row) => Object.fromEntries(header!.map((name, index) => [name, row[index]!])));
}

function exportCsv(token: string, query = '') {
  return api.get<string>(`/api/listings/export${query}`, { token });
}

function importCsv(token: string, file: string | Uint8Array, { dryRun = false, contentType = 'text/csv' } = {}) {
  return api.post(`/api/listings/import${dryRun ? '?dryRun=true' : ''}`, { token, raw: file, headers: { 'content-type': contentType } });
}

function importForm(token: string, file: string | Uint8Array, field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([file], { type: 'text/csv' }), 'listings.csv');
  return api.post('/api/listings/import', { token, form });
}

async function listingsOf(agentId: string) {
  return server.db.select().from(listings).where(eq(listings.agentId, agentId)).orderBy(asc(listings.createdAt), asc(listings.id));
}

async function countRows(): Promise<{ listings: number; audit: number }> {
  const result = (await server.db.execute(sql`select (select count(*) from listings)::int as listings, (select count(*) from audit_entries)::int as audit`)) as unknown as {
    rows: Array<{ listings: number; audit: number }>;
  };
  return result.rows[0]!;
}

async function auditOf(listingId: string) {
  return server.db.select().from(auditEntries).where(eq(auditEntries.entityId, listingId)).orderBy(asc(auditEntries.at));
}

/** A fresh agent, so that a test's listings and rate-limit counts are its own. */
const freshAgent = (): Promise<TestUser> => buildAgent(server.db);

describe('GET /api/listings/export', () => {
  it('streams an agent\'s own listings, newest first, as UTF-8 CSV with a byte order mark and CRLF rows', async () => {
    const agent = await freshAgent();
    const older = await buildListing(server.db, {
      categoryId: shop.category.id,
      agentId: agent.id,
      title: 'iPhone 13',
      price: 1299.5,
      stockQuantity: 2,
      attributes: { brand: 'Apple', model: 'iPhone 13', storage: '128GB', batteryHealth: 91, hasWarranty: true },
      images: ['/uploads/first.webp', '/uploads/second.webp'],
      createdAt: new Date('2026-01-01T10:00:00.000Z'),
    });
    const newer = await buildListing(server.db, { categoryId: shop.category.id, agentId: agent.id, title: 'Pixel 8', description: '', price: 400, createdAt: new Date('2026-02-01T10:00:00.000Z') });
    await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.otherAgent.id, title: 'Not mine' });

    const response = await fetch(`${server.baseUrl}/api/listings/export`, { headers: { authorization: `Bearer ${agent.token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="listings-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.split('\r\n')).toEqual([
      PHONE_HEADER.join(','),
      `${newer.id},Pixel 8,,400.00,1,AVAILABLE,${shop.category.displayName},Apple,iPhone 15 Pro,256GB,,,,,2026-02-01T10:00:00.000Z`,
      `${older.id},iPhone 13,"Mint condition, boxed.",1299.50,2,AVAILABLE,${shop.category.displayName},Apple,iPhone 13,128GB,,91,true,${process.env.API_BASE_URL}/uploads/first.webp | ${process.env.API_BASE_URL}/uploads/second.webp,2026-01-01T10:00:00.000Z`,
      '',
    ]);
  });

  it('gives an administrator every listing, with one attribute column per field of the categories in the file', async () => {
    const phone = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Admin sees this phone' });
    const house = await buildListing(server.db, { categoryId: houses.id, agentId: shop.otherAgent.id, title: 'Admin sees this house', attributes: { bedrooms: 3, condition: 'New' } });
    const response = await exportCsv(shop.admin.token);
    expect(response.status).toBe(200);
    const [header] = recordsOf(response.body);
    // Categories by display name ("Houses" before "Phones …"), each with its own fields in order; `condition` once.
    expect(header).toEqual([
      'id', 'title', 'description', 'price', 'stockQuantity', 'status', 'category',
      'attr:bedrooms', 'attr:furnished', 'attr:condition', 'attr:brand', 'attr:model', 'attr:storage', 'attr:batteryHealth', 'attr:hasWarranty',
      'images', 'createdAt',
    ]);
    const rows = rowsOf(response.body);
    const total = (await server.db.select({ id: listings.id }).from(listings).where(isNull(listings.deletedAt))).length;
    expect(rows).toHaveLength(total);
    expect(rows.find((row) => row.id === house.id)).toMatchObject({ category: 'Houses', 'attr:bedrooms': '3', 'attr:condition': 'New', 'attr:brand': '' });
    expect(rows.find((row) => row.id === phone.id)).toMatchObject({ category: shop.category.displayName, 'attr:bedrooms': '', 'attr:brand': 'Apple' });
  });

  it('applies the list\'s filters, by the list\'s names', async () => {
    const agent = await freshAgent();
    const cheap = await buildListing(server.db, { categoryId: shop.category.id, agentId: agent.id, title: 'Cheap phone', price: 50, city: 'Adama' });
    const dear = await buildListing(server.db, { categoryId: shop.category.id, agentId: agent.id, title: 'Dear phone', price: 5000, status: 'PENDING' });
    const house = await buildListing(server.db, { categoryId: houses.id, agentId: agent.id, title: 'House by the lake', price: 90000, attributes: { bedrooms: 2 } });
    const idsOf = async (query: string) => rowsOf((await exportCsv(agent.token, query)).body).map((row) => row.id);
    expect(await idsOf('?status=PENDING')).toEqual([dear.id]);
    expect(await idsOf(`?categoryId=${houses.id}`)).toEqual([house.id]);
    expect(await idsOf('?minPrice=100&maxPrice=10000')).toEqual([dear.id]);
    expect(await idsOf('?search=lake')).toEqual([house.id]);
    expect(await idsOf('?city=adama')).toEqual([cheap.id]);
    const onlyHouses = recordsOf((await exportCsv(agent.token, `?categoryId=${houses.id}`)).body)[0];
    expect(onlyHouses).toEqual(['id', 'title', 'description', 'price', 'stockQuantity', 'status', 'category', 'attr:bedrooms', 'attr:furnished', 'attr:condition', 'images', 'createdAt']);
    const none = await exportCsv(agent.token, '?search=nothing-matches-this');
    expect(none.status).toBe(200);
    expect(recordsOf(none.body)).toEqual([['id', 'title', 'description', 'price', 'stockQuantity', 'status', 'category', 'images', 'createdAt']]);
  });

  it('streams the same file through the Web signature the platform invokes, and answers HEAD without a body', async () => {
    const agent = await freshAgent();
    await buildListing(server.db, { categoryId: shop.category.id, agentId: agent.id, title: 'Through fetch(request)' });
    const { default: exportFunction } = (await import('../api/listings/export.js')) as { default: RouteHandler };
    const headers = { authorization: `Bearer ${agent.token}` };
    const web = await exportFunction.fetch(new Request('http://localhost/api/listings/export', { headers }));
    expect(web.status).toBe(200);
    expect(web.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await web.text()).toBe((await exportCsv(agent.token)).text);
    const head = await exportFunction.fetch(new Request('http://localhost/api/listings/export', { method: 'HEAD', headers }));
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
  });

  it('refuses a bad filter with the list\'s 400', async () => {
    const response = await exportCsv(shop.agent.token, '?status=GONE');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED', details: [{ field: 'status', message: 'must be one of AVAILABLE, PENDING, SOLD, ARCHIVED' }] });
  });

  it('reads a long list page by page: every listing once, newest first', async () => {
    const agent = await freshAgent();
    const start = Date.parse('2025-01-01T00:00:00.000Z');
    // Three listings per millisecond, so a page of a thousand ends between listings of the same moment.
    await server.db.insert(listings).values(
      Array.from({ length: 2001 }, (_, index) => ({
        title: `Bulk ${index}`,
        price: index,
        status: 'PENDING' as const,
        categoryId: shop.category.id,
        agentId: agent.id,
        attributes: { brand: 'Apple', model: 'X', storage: '64GB' },
        createdAt: new Date(start + Math.floor(index / 3)),
      })),
    );
    const rows = rowsOf((await exportCsv(agent.token)).body);
    const stored = await server.db.select({ id: listings.id }).from(listings).where(eq(listings.agentId, agent.id)).orderBy(sql`"createdAt" desc, id desc`);
    expect(rows.map((row) => row.id)).toEqual(stored.map((row) => row.id));
  });
});

describe('POST /api/listings/import', () => {
  it('creates an agent\'s listings from a CSV body, with their audit entries and no channel post', async () => {
    const agent = await freshAgent();
    const before = await countRows();
    const eventsBefore = events.length;
    const file = csvOf([
      ['title', 'description', 'price', 'stockQuantity', 'status', 'category', 'attr:brand', 'attr:model', 'attr:storage', 'attr:hasWarranty'],
      ['iPhone 14', 'Boxed', '899.99', '3', 'PENDING', shop.category.displayName, 'Apple', 'iPhone 14', '128GB', 'true'],
      ['Galaxy S23', '', '650', '', '', shop.category.name.toLowerCase(), 'Samsung', 'S23', '256GB', ''],
    ]);
    const response = await importCsv(agent.token, file);
    expect(response.status).toBe(200);
    const created = await listingsOf(agent.id);
    expect(created).toHaveLength(2);
    const [iphone, galaxy] = [created.find((row) => row.title === 'iPhone 14')!, created.find((row) => row.title === 'Galaxy S23')!];
    expect(response.body).toEqual({
      success: true,
      data: {
        dryRun: false,
        created: 2,
        updated: 0,
        unchanged: 0,
        failed: 0,
        warnings: [],
        rows: [
          { row: 2, id: iphone.id, status: 'created' },
          { row: 3, id: galaxy.id, status: 'created' },
        ],
      },
    });
    expect(iphone).toMatchObject({ description: 'Boxed', price: 899.99, stockQuantity: 3, status: 'PENDING', categoryId: shop.category.id, images: [], attributes: { brand: 'Apple', model: 'iPhone 14', storage: '128GB', hasWarranty: true } });
    expect(galaxy).toMatchObject({ description: '', price: 650, stockQuantity: 1, status: 'AVAILABLE', attributes: { brand: 'Samsung', model: 'S23', storage: '256GB' } });
    const [entry] = await auditOf(iphone.id);
    expect(entry).toMatchObject({ action: 'create', entity: 'listing', actorId: agent.id, requestId: response.headers.get('x-request-id') });
    expect(entry!.changes).toMatchObject({ title: { before: null, after: 'iPhone 14' }, price: { before: null, after: 899.99 } });
    expect(await countRows()).toEqual({ listings: before.listings + 2, audit: before.audit + 2 });
    expect(events.length).toBe(eventsBefore);
  });

  it('takes the file as the multipart field `file`', async () => {
    const agent = await freshAgent();
    const file = csvOf([
      ['title', 'price', 'category', 'attr:brand', 'attr:model', 'attr:storage'],
      ['From a form', '10', shop.category.displayName, 'Nokia', '3310', '64GB'],
    ]);
    const response = await importForm(agent.token, file);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ created: 1, failed: 0 });
    expect((await listingsOf(agent.id)).map((row) => row.title)).toEqual(['From a form']);
  });

  it('checks a file without writing anything when dryRun=true, answering the same report', async () => {
    const agent = await freshAgent();
    const mine = await buildListing(server.db, { categoryId: shop.category.id, agentId: agent.id, title: 'Old title' });
    const before = await countRows();
    const [stored] = await listingsOf(agent.id);
    const file = csvOf([
      ['id', 'title', 'price', 'category', 'attr:brand', 'attr:model', 'attr:storage'],
      [mine.id, 'New title', '1', shop.category.displayName, 'Apple', 'iPhone 15 Pro', '256GB'],
      ['', 'Would be new', '2', shop.category.displayName, 'Apple', 'X', '64GB'],
      ['', 'Bad price', '-1', shop.category.displayName, 'Apple', 'X', '64GB'],
    ]);
    const response = await importCsv(agent.token, file, { dryRun: true });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      dryRun: true,
      created: 1,
      updated: 1,
      unchanged: 0,
      failed: 1,
      warnings: [],
      rows: [
        { row: 2, id: mine.id, status: 'updated' },
        { row: 3, status: 'created' },
        { row: 4, status: 'failed', errors: [{ field: 'price', message: 'must be a non-negative number with at most 2 decimals', received: '-1' }] },
      ],
    });
    expect(await countRows()).toEqual(before);
    expect(await listingsOf(agent.id)).toEqual([stored]);
  });

  it('updates the caller\'s listings named by id, writing only what changes, and reports the rest unchanged', async () => {
    const agent = await freshAgent();
    const changing = await buildListing(server.db, { categoryId: shop.category.id, agentId: agent.id, title: 'Repriced', price: 100 });
    const steady = await buildListing(server.db, { categoryId: shop.category.id, agentId: agent.id, title: 'Steady', price: 200 });
    const before = await countRows();
    const response = await importCsv(agent.token, csvOf([['id', 'price'], [changing.id, '120.5'], [steady.id, '200.00']]));
    expect(response.body.data).toMatchObject({ created: 0, updated: 2, unchanged: 1, failed: 0, rows: [{ row: 2, id: changing.id, status: 'updated' }, { row: 3, id: steady.id, status: 'updated' }] });
    const [repriced, unchanged] = [await server.db.select().from(listings).where(eq(listings.id, changing.id)), await server.db.select().from(listings).where(eq(listings.id, steady.id))];
    expect(repriced[0]).toMatchObject({ price: 120.5, title: 'Repriced' });
    expect(repriced[0]!.updatedAt.getTime()).toBeGreaterThan(changing.updatedAt.getTime());
    expect(unchanged[0]).toEqual(steady);
    const entries = await auditOf(changing.id);
    expect(entries.map((entry) => [entry.action, entry.changes])).toEqual([['update', { price: { before: 100, after: 120.5 } }]]);
    expect(await countRows()).toEqual({ listings: before.listings, audit: before.audit + 1 });
  });

  it('fails the row of an agent naming another agent\'s listing, and changes nothing of it', async () => {
    const agent = await freshAgent();
    const theirs = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.otherAgent.id, title: 'Theirs', price: 10 });
    const response = await importCsv(
      agent.token,
      csvOf([
        ['id', 'title', 'price', 'category', 'attr:brand', 'attr:model', 'attr:storage'],
        [theirs.id, 'Taken over', '1', shop.category.displayName, 'Apple', 'X', '64GB'],
        ['', 'Mine', '5', shop.category.displayName, 'Apple', 'X', '64GB'],
      ]),
    );
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      created: 1,
      failed: 1,
      rows: [{ row: 2, id: theirs.id, status: 'failed', errors: [{ field: 'id', message: 'Not authorized' }] }, { row: 3, status: 'created' }],
    });
    expect((await server.db.select().from(listings).where(eq(listings.id, theirs.id)))[0]).toEqual(theirs);
    expect(await auditOf(theirs.id)).toEqual([]);
  });

  it('lets an administrator pick each listing\'s owner by agentEmail, and requires it to create', async () => {
    const owner = await freshAgent();
    const admin = await buildAdmin(server.db);
    const mine = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, title: 'Moves to another agent' });
    const response = await importCsv(
      admin.token,
      csvOf([
        ['id', 'title', 'price', 'category', 'attr:brand', 'attr:model', 'attr:storage', 'agentEmail'],
        ['', 'Owned by the agent', '7', shop.category.displayName, 'Apple', 'X', '64GB', owner.email.toUpperCase()],
        ['', 'Nobody\'s', '7', shop.category.displayName, 'Apple', 'X', '64GB', ''],
        ['', 'Unknown owner', '7', shop.category.displayName, 'Apple', 'X', '64GB', 'nobody@example.com'],
        [mine.id, 'Moves to another agent', '999.99', shop.category.displayName, 'Apple', 'iPhone 15 Pro', '256GB', owner.email],
      ]),
    );
    expect(response.body.data).toMatchObject({
      created: 1,
      updated: 1,
      failed: 2,
      rows: [
        { row: 2, status: 'created' },
        { row: 3, status: 'failed', errors: [{ field: 'agentEmail', message: 'is required' }] },
        { row: 4, status: 'failed', errors: [{ field: 'agentEmail', message: 'User with email "nobody@example.com" not found' }] },
        { row: 5, id: mine.id, status: 'updated' },
      ],
    });
    expect((await listingsOf(owner.id)).map((row) => row.title).sort()).toEqual(['Moves to another agent', 'Owned by the agent']);
    expect((await auditOf(mine.id)).map((entry) => entry.changes)).toEqual([{ agentId: { before: shop.agent.id, after: owner.id } }]);
  });

  it('fails an agent\'s row that names another owner', async () => {
    const agent = await freshAgent();
    const response = await importCsv(
      agent.token,
      csvOf([
        ['title', 'price', 'category', 'attr:brand', 'attr:model', 'attr:storage', 'agentEmail'],
        ['Mine', '7', shop.category.displayName, 'Apple', 'X', '64GB', agent.email],
        ['For someone else', '7', shop.category.displayName, 'Apple', 'X', '64GB', shop.otherAgent.email],
      ]),
    );
    expect(response.body.data).toMatchObject({ created: 1, failed: 1, rows: [{ row: 2, status: 'created' }, { row: 3, status: 'failed', errors: [{ field: 'agentEmail', message: 'Not authorized' }] }] });
    expect((await listingsOf(agent.id)).map((row) => row.title)).toEqual(['Mine']);
  });

  it('fails rows with an unknown category, an attribute value the rules refuse, or a price of 12,5 or -1, in the single-listing words', async () => {
    const agent = await freshAgent();
    const response = await importCsv(
      agent.token,
      csvOf([
        ['title', 'price', 'category', 'attr:brand', 'attr:model', 'attr:storage', 'attr:bedrooms'],
        ['Unknown category', '5', 'Spaceships', 'Apple', 'X', '64GB', ''],
        ['Unknown storage', '5', shop.category.displayName, 'Apple', 'X', '3GB', ''],
        ['Comma price', '12,5', shop.category.displayName, 'Apple', 'X', '64GB', ''],
        ['Negative price', '-1', shop.category.displayName, 'Apple', 'X', '64GB', ''],
        ['Not a phone field', '5', shop.category.displayName, 'Apple', 'X', '64GB', '3'],
        ['', '', shop.category.displayName, '', 'X', '64GB', ''],
        ['Fine', '5', shop.category.displayName, 'Apple', 'X', '64GB', ''],
      ]),
    );
    expect(response.status).toBe(200);
    const priceError = 'must be a non-negative number with at most 2 decimals';
    expect(response.body.data.rows).toEqual([
      { row: 2, status: 'failed', errors: [{ field: 'category', message: 'Category "Spaceships" not found', received: 'Spaceships' }] },
      { row: 3, status: 'failed', errors: [{ field: 'attr:storage', message: 'must be one of: 64GB, 128GB, 256GB, 512GB, 1TB', received: '3GB' }] },
      { row: 4, status: 'failed', errors: [{ field: 'price', message: priceError, received: '12,5' }] },
      { row: 5, status: 'failed', errors: [{ field: 'price', message: priceError, received: '-1' }] },
      { row: 6, status: 'failed', errors: [{ field: 'attr:bedrooms', message: 'is not an attribute of this category', received: '3' }] },
      {
        row: 7,
        status: 'failed',
        errors: [
          { field: 'title', message: 'is required' },
          { field: 'price', message: 'is required' },
          { field: 'attr:brand', message: 'is required', received: null },
        ],
      },
      { row: 8, id: expect.any(String), status: 'created' },
    ]);
    expect((await listingsOf(agent.id)).map((row) => row.title)).toEqual(['Fine']);
  });

  it('reports unknown and unnamed columns as warnings, and imports the rest', async () => {
    const agent = await freshAgent();
    const response = await importCsv(
      agent.token,
      csvOf([
        ['title', 'colour', 'price', 'category', 'attr:brand', 'attr:model', 'attr:storage', ''],
        ['With extras', 'red', '5', shop.category.displayName, 'Apple', 'X', '64GB', 'ignored'],
      ]),
    );
    expect(response.body.data).toMatchObject({
      created: 1,
      failed: 0,
      warnings: [
        { field: 'colour', message: 'is not a column of a listing import: its cells are not read' },
        { field: 'column 8', message: 'has no name: its cells are not read' },
      ],
    });
    expect((await listingsOf(agent.id)).map((row) => row.title)).toEqual(['With extras']);
  });

  it('numbers rows by the line of the file they start on, past quoted line breaks and blank lines', async () => {
    const agent = await freshAgent();
    const file = [
      'title,description,price,category,attr:brand,attr:model,attr:storage',
      `"Two lines","first\r\nsecond",5,${shop.category.displayName},Apple,X,64GB`,
      '',
      `"Three lines","a\nb\nc",5,${shop.category.displayName},Apple,X,64GB`,
      `Bad,,x,${shop.category.displayName},Apple,X,64GB`,
      '',
    ].join('\r\n');
    const response = await importCsv(agent.token, file);
    expect(response.body.data.rows.map((row: { row: number; status: string }) => [row.row, row.status])).toEqual([
      [2, 'created'],
      [5, 'created'],
      [8, 'failed'],
    ]);
    const stored = await listingsOf(agent.id);
    expect(stored.map((row) => row.description).sort()).toEqual(['a\nb\nc', 'first\r\nsecond']);
  });

  it('keeps, reorders or drops a listing\'s own images named in `images`, and refuses images on a new listing', async () => {
    const agent = await freshAgent();
    const base = process.env.API_BASE_URL;
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: agent.id, images: ['/uploads/one.webp', '/uploads/two.webp', '/uploads/three.webp'] });
    const response = await importCsv(
      agent.token,
      csvOf([
        ['id', 'title', 'price', 'category', 'attr:brand', 'attr:model', 'attr:storage', 'images'],
        [listing.id, '', '', '', 'Apple', 'iPhone 15 Pro', '256GB', `${base}/uploads/three.webp | /uploads/one.webp`],
        ['', 'New with photos', '5', shop.category.displayName, 'Apple', 'X', '64GB', `${base}/uploads/two.webp`],
      ]),
    );
    expect(response.body.data.rows).toEqual([
      { row: 2, id: listing.id, status: 'updated' },
      { row: 3, status: 'failed', errors: [{ field: 'images', message: 'must be empty for a new listing: its photos are added through the listing\'s own endpoints' }] },
    ]);
    const [stored] = await server.db.select().from(listings).where(eq(listings.id, listing.id));
    expect(stored).toMatchObject({ images: ['/uploads/three.webp', '/uploads/one.webp'], title: listing.title, attributes: listing.attributes });
  });

  it('round-trips commas, quotes, line breaks, Amharic and formula-like cells, and an unchanged file changes nothing', async () => {
    const agent = await freshAgent();
    const tricky = [
      { title: 'Comma, "quoted" and more', description: 'line one\r\nline two\nline three', brand: 'Apple' },
      { title: 'ሳምሰንግ ጋላክሲ ስልክ', description: 'በጣም ጥሩ ሁኔታ፤ ከሳጥኑ ጋር።', brand: 'ሳምሰንግ' },
      { title: '=HYPERLINK("http://evil.example","click")', description: '+1 555 0100', brand: '@brand' },
      { title: "'=already behind a quote", description: '-5 off today', brand: "''@two quotes" },
      { title: 'Tab start', description: '\tindented\rcarriage', brand: '-minus' },
    ];
    const file = csvOf([
      ['title', 'description', 'price', 'category', 'attr:brand', 'attr:model', 'attr:storage', 'attr:batteryHealth'],
      ...tricky.map((item) => [item.title.replace(/^([=+\-@\t\r]|'+[=+\-@\t\r])/, "'$1"), item.description.replace(/^([=+\-@\t\r]|'+[=+\-@\t\r])/, "'$1"), '19.90', shop.category.displayName, item.brand.replace(/^([=+\-@\t\r]|'+[=+\-@\t\r])/, "'$1"), 'M', '64GB', '-3']),
    ]);
    const created = await importCsv(agent.token, file);
    expect(created.body.data).toMatchObject({ created: tricky.length, failed: 0 });
    const stored = await listingsOf(agent.id);
    expect(stored.map((row) => [row.title, row.description, row.attributes.brand, row.attributes.batteryHealth]).sort()).toEqual(
      tricky.map((item) => [item.title, item.description, item.brand, -3]).sort(),
    );

    const exported = await exportCsv(agent.token);
    const rows = rowsOf(exported.body);
    // In the file every formula-like cell sits behind one more quote than it holds.
    const formula = rows.find((row) => row.id === stored.find((listing) => listing.title.startsWith('=HYPERLINK'))!.id)!;
    expect(formula).toMatchObject({ title: `'=HYPERLINK("http://evil.example","click")`, description: "'+1 555 0100", 'attr:brand': "'@brand", 'attr:batteryHealth': "'-3" });
    const quoted = rows.find((row) => row.title === "''=already behind a quote")!;
    expect(quoted).toMatchObject({ description: "'-5 off today", 'attr:brand': "'''@two quotes" });
    expect(rows.find((row) => row.title === 'Tab start')).toMatchObject({ description: "'\tindented\rcarriage", 'attr:brand': "'-minus" });
    expect(rows.find((row) => row.title === 'ሳምሰንግ ጋላክሲ ስልክ')).toMatchObject({ description: 'በጣም ጥሩ ሁኔታ፤ ከሳጥኑ ጋር።', 'attr:brand': 'ሳምሰንግ' });

    const before = await countRows();
    const storedBefore = await listingsOf(agent.id);
    const eventsBefore = events.length;
    const reimported = await importCsv(agent.token, exported.text);
    expect(reimported.status).toBe(200);
    expect(reimported.body.data).toMatchObject({ created: 0, updated: tricky.length, unchanged: tricky.length, failed: 0, warnings: [] });
    expect(await listingsOf(agent.id)).toEqual(storedBefore);
    expect(await countRows()).toEqual(before);
    expect(events.length).toBe(eventsBefore);
  });

  it('re-imports an administrator\'s whole export unchanged: every row updated, nothing written', async () => {
    const admin = await buildAdmin(server.db);
    const exported = await exportCsv(admin.token);
    const total = rowsOf(exported.body).length;
    const before = await countRows();
    const snapshot = await server.db.select().from(listings).orderBy(asc(listings.id));
    const response = await importCsv(admin.token, exported.text);
    expect(response.body.data).toMatchObject({ created: 0, updated: total, unchanged: total, failed: 0 });
    expect(await server.db.select().from(listings).orderBy(asc(listings.id))).toEqual(snapshot);
    expect(await countRows()).toEqual(before);
  });
});

describe('listings in the trash', () => {
  const trash = (id: string, token: string) => api.delete(`/api/listings/${id}`, { token });

  it('are left out of the export, and exported alone with trashed=true, as the list answers them', async () => {
    const agent = await freshAgent();
    const kept = await buildListing(server.db, { categoryId: shop.category.id, agentId: agent.id, title: 'Still for sale' });
    const trashed = await buildListing(server.db, { categoryId: houses.id, agentId: agent.id, title: 'House in the trash', attributes: { bedrooms: 4 } });
    expect((await trash(trashed.id, agent.token)).status).toBe(200);

    const shopFile = await exportCsv(agent.token);
    expect(rowsOf(shopFile.body).map((row) => row.id)).toEqual([kept.id]);
    // The trashed house's category gives the file no columns either.
    expect(recordsOf(shopFile.body)[0]).toEqual(PHONE_HEADER);

    const response = await fetch(`${server.baseUrl}/api/listings/export?trashed=true`, { headers: { authorization: `Bearer ${agent.token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="listings-trash-\d{4}-\d{2}-\d{2}\.csv"$/);
    const trashFile = await response.text();
    expect(rowsOf(trashFile)).toEqual([expect.objectContaining({ id: trashed.id, title: 'House in the trash', category: 'Houses', 'attr:bedrooms': '4' })]);
    const listed = await api.get(`/api/listings?trashed=true&categoryId=${houses.id}`, { token: agent.token });
    expect(listed.body.data.map((listing: { id: string }) => listing.id)).toEqual([trashed.id]);
    expect(rowsOf((await exportCsv(agent.token, `?trashed=true&categoryId=${houses.id}`)).body).map((row) => row.id)).toEqual([trashed.id]);
    expect(rowsOf((await exportCsv(agent.token, `?trashed=true&categoryId=${shop.category.id}`)).body)).toEqual([]);

    const admin = await buildAdmin(server.db);
    const everyTrashed = await server.db.select({ id: listings.id }).from(listings).where(sql`${listings.deletedAt} is not null`);
    const adminTrash = rowsOf((await exportCsv(admin.token, '?trashed=true')).body).map((row) => row.id);
    expect(adminTrash.sort()).toEqual(everyTrashed.map((row) => row.id).sort());
    expect(rowsOf((await exportCsv(admin.token)).body).map((row) => row.id)).not.toContain(trashed.id);
  });

  it('fail the import row that names them, dry run or not, and stay in the trash as they were', async () => {
    const agent = await freshAgent();
    const admin = await buildAdmin(server.db);
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: agent.id, title: 'Trashed phone', price: 100 });
    expect((await trash(listing.id, agent.token)).status).toBe(200);
    const [inTrash] = await server.db.select().from(listings).where(eq(listings.id, listing.id));
    expect(inTrash!.deletedAt).not.toBeNull();
    const auditBefore = await auditOf(listing.id);
    const before = await countRows();
    const file = csvOf([
      ['id', 'title', 'price'],
      [listing.id, 'Brought back by a file', '90'],
    ]);
    const failedRow = {
      row: 2,
      id: listing.id,
      status: 'failed',
      errors: [{ field: 'id', message: `Listing with id "${listing.id}" is in the trash: restore it first (POST /api/listings/${listing.id}/restore)`, received: listing.id }],
    };
    for (const token of [agent.token, admin.token]) {
      for (const dryRun of [true, false]) {
        const response = await importCsv(token, file, { dryRun });
        expect(response.status).toBe(200);
        expect(response.body.data).toEqual({ dryRun, created: 0, updated: 0, unchanged: 0, failed: 1, warnings: [], rows: [failedRow] });
      }
    }
    // Another agent naming it fails as for any listing not theirs.
    const stranger = await freshAgent();
    expect((await importCsv(stranger.token, file)).body.data.rows).toEqual([{ row: 2, id: listing.id, status: 'failed', errors: [{ field: 'id', message: 'Not authorized', received: listing.id }] }]);
    expect((await server.db.select().from(listings).where(eq(listings.id, listing.id)))[0]).toEqual(inTrash);
    expect(await auditOf(listing.id)).toEqual(auditBefore);
    expect(await countRows()).toEqual(before);
    expect((await api.get(`/api/listings/${listing.id}`, { token: agent.token })).status).toBe(404);

    // Once restored, the same file updates it.
    expect((await api.post(`/api/listings/${listing.id}/restore`, { token: agent.token })).status).toBe(200);
    expect((await importCsv(agent.token, file)).body.data).toMatchObject({ updated: 1, unchanged: 0, failed: 0 });
    expect((await server.db.select().from(listings).where(eq(listings.id, listing.id)))[0]).toMatchObject({ title: 'Brought back by a file', price: 90, deletedAt: null });
  });
});

describe('the sample file of docs/bulk-data.md', () => {
  it('imports cleanly into the default categories: three phones, each value as written', async () => {
    const admin = await buildAdmin(server.db);
    expect((await api.get('/api/admin/seed-categories', { token: admin.token })).status).toBe(200);
    const agent = await freshAgent();
    const sample = fs.readFileSync('docs/examples/listings-import.csv');
    const checked = await importCsv(agent.token, new Uint8Array(sample), { dryRun: true });
    expect(checked.body.data).toMatchObject({ created: 3, updated: 0, failed: 0, warnings: [] });
    expect(await listingsOf(agent.id)).toEqual([]);
    const imported = await importCsv(agent.token, new Uint8Array(sample));
    expect(imported.body.data.rows.map((row: { row: number }) => row.row)).toEqual([2, 4, 5]);
    const stored = await listingsOf(agent.id);
    expect(stored.map((row) => [row.title, row.price, row.status, row.stockQuantity]).sort()).toEqual([
      ['iPhone 13, 128GB', 549, 'AVAILABLE', 2],
      ['Samsung Galaxy A54', 320, 'AVAILABLE', 1],
      ['ሳምሰንግ ጋላክሲ S23', 780.5, 'PENDING', 1],
    ].sort());
  });
});

describe('POST /api/listings/import: a file it cannot read', () => {
  const header = 'title,price,category,attr:brand,attr:model,attr:storage';
  const good = () => `Fine,5,${shop.category.displayName},Apple,X,64GB`;

  async function expectRefused(response: Awaited<ReturnType<typeof importCsv>>, status: number, body: Record<string, unknown>, before: { listings: number; audit: number }) {
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ success: false, ...body });
    expect(await countRows()).toEqual(before);
  }

  it('answers 400 naming the row and column of unbalanced quotes, writing nothing', async () => {
    const before = await countRows();
    const response = await importCsv(shop.agent.token, [header, good(), `"Open quote,5,${shop.category.displayName},Apple,X,64GB`, good()].join('\n'));
    await expectRefused(
      response,
      400,
      { code: 'MALFORMED_BODY', error: 'Row 3, column "title": a quoted cell is never closed (unbalanced quotes)', details: [{ field: 'title', message: 'row 3: a quoted cell is never closed (unbalanced quotes)' }] },
      before,
    );
    const stray = await importCsv(shop.agent.token, [header, good(), `Fine,5,${shop.category.displayName},App"le,X,64GB`].join('\n'));
    expect(stray.status).toBe(400);
    expect(stray.body.error).toBe('Row 3, column "attr:brand": a quote inside a cell that does not start with one (quote the whole cell and write the quote twice)');
  });

  it('answers 400 naming the row of bytes that are not UTF-8', async () => {
    const before = await countRows();
    const latin1 = Buffer.concat([Buffer.from(`${header}\n${good()}\n`), Buffer.from(`Caf\xe9,5,${shop.category.displayName},Apple,X,64GB\n`, 'latin1')]);
    const response = await importCsv(shop.agent.token, new Uint8Array(latin1));
    await expectRefused(response, 400, { code: 'MALFORMED_BODY', error: 'Row 3: the file is not UTF-8 text', details: [{ field: '', message: 'row 3: the file is not UTF-8 text' }] }, before);
  });

  it('answers 400 to a file without a header, or without the columns a listing needs', async () => {
    const before = await countRows();
    const noHeader = { code: 'VALIDATION_FAILED', error: 'Row 1: the file has no header: its first row must name the columns', details: [{ field: '', message: 'row 1: the file has no header: its first row must name the columns' }] };
    await expectRefused(await importCsv(shop.agent.token, ''), 400, noHeader, before);
    await expectRefused(await importCsv(shop.agent.token, '\r\n\r\n'), 400, noHeader, before);
    await expectRefused(
      await importCsv(shop.agent.token, `title,attr:brand\n${good()}`),
      400,
      {
        code: 'VALIDATION_FAILED',
        error: 'Row 1: missing required columns: price, category',
        details: [
          { field: 'price', message: 'row 1: is a required column' },
          { field: 'category', message: 'row 1: is a required column' },
        ],
      },
      before,
    );
    await expectRefused(
      await importCsv(shop.agent.token, `title;price;category\nA;1;${shop.category.displayName}`),
      400,
      {
        code: 'VALIDATION_FAILED',
        error: 'Row 1: the cells are separated by semicolons: save the file as CSV with commas',
        details: [{ field: '', message: 'row 1: the cells are separated by semicolons: save the file as CSV with commas' }],
      },
      before,
    );
    await expectRefused(
      await importCsv(shop.agent.token, `title,price,price,category\nA,1,2,${shop.category.displayName}`),
      400,
      { code: 'VALIDATION_FAILED', error: 'Row 1, column "price": the column is named twice', details: [{ field: 'price', message: 'row 1: the column is named twice' }] },
      before,
    );
  });

  it('answers 400 naming both rows when one id is on two rows, writing nothing', async () => {
    const listing = await buildListing(server.db, { categoryId: shop.category.id, agentId: shop.agent.id, price: 10 });
    const before = await countRows();
    const response = await importCsv(shop.agent.token, csvOf([['id', 'price'], [listing.id, '11'], ['', ''], [listing.id.toUpperCase(), '12']]));
    await expectRefused(response, 400, { code: 'VALIDATION_FAILED', error: 'Row 4, column "id": the same id as row 2', details: [{ field: 'id', message: 'row 4: the same id as row 2' }] }, before);
    expect((await server.db.select().from(listings).where(eq(listings.id, listing.id)))[0]).toEqual(listing);
  });

  it('answers 413 to 5,001 rows, and to 4 MiB and one byte, as the body or a form, writing nothing', async () => {
    const agent = await freshAgent();
    const before = await countRows();
    const rows = Array.from({ length: 5001 }, (_, index) => `Row ${index},5,${shop.category.displayName},Apple,X,64GB`);
    await expectRefused(await importCsv(agent.token, [header, ...rows].join('\n')), 413, { code: 'PAYLOAD_TOO_LARGE', error: 'Too many rows: at most 5000 in one file, and this one has 5001' }, before);
    const padded = `${header}\n${good()}\n`;
    const oversized = padded + 'x'.repeat(4 * 1024 * 1024 + 1 - Buffer.byteLength(padded));
    expect(Buffer.byteLength(oversized)).toBe(4 * 1024 * 1024 + 1);
    const asBody = await importCsv(agent.token, oversized);
    expect(asBody.status).toBe(413);
    expect(asBody.body.code).toBe('PAYLOAD_TOO_LARGE');
    const asForm = await importForm(agent.token, oversized);
    expect(asForm.status).toBe(413);
    expect(asForm.body).toEqual({ success: false, code: 'PAYLOAD_TOO_LARGE', error: 'File "listings.csv" is too large: at most 4 MB per file' });
    expect(await countRows()).toEqual(before);
  });

  it('answers 415 to a body of another type, and 400 to a form without the file', async () => {
    const before = await countRows();
    await expectRefused(await importCsv(shop.agent.token, '{"title":"x"}', { contentType: 'application/json' }), 415, { code: 'UNSUPPORTED_MEDIA_TYPE', error: 'Content-Type must be text/csv or multipart/form-data' }, before);
    await expectRefused(await importForm(shop.agent.token, `${header}\n${good()}`, 'upload'), 400, { code: 'VALIDATION_FAILED', error: 'Unexpected file field "upload"' }, before);
  });
});


describe('how often a caller may export and import', () => {
  async function sixtyTimes(call: () => Promise<{ status: number }>): Promise<number[]> {
    const statuses: number[] = [];
    for (let round = 0; round < 6; round += 1) statuses.push(...(await Promise.all(Array.from({ length: 10 }, call))).map((response) => response.status));
    return statuses;
  }

  it('answers 429 past 60 exports an hour', async () => {
    const agent = await freshAgent();
    expect(new Set(await sixtyTimes(() => exportCsv(agent.token)))).toEqual(new Set([200]));
    expectTooMany(await exportCsv(agent.token));
  });

  it('answers 429 past 60 imports an hour, dry runs included, writing nothing', async () => {
    const agent = await freshAgent();
    const file = csvOf([['title', 'price', 'category', 'attr:brand', 'attr:model', 'attr:storage'], ['Counted', '5', shop.category.displayName, 'Apple', 'X', '64GB']]);
    expect(new Set(await sixtyTimes(() => importCsv(agent.token, file, { dryRun: true })))).toEqual(new Set([200]));
    expectTooMany(await importCsv(agent.token, file));
    expect(await listingsOf(agent.id)).toEqual([]);
  });
});
