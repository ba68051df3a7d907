import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  discoverEndpoints,
  hostileCsvBody,
  hostileJsonBody,
  hostilePathValue,
  hostileQuery,
  jsonBodyExamples,
  queryExamples,
  MALFORMED_BODIES,
  MALFORMED_MULTIPART,
  OVERSIZED_STRING,
  pathWith,
  plausiblePath,
  type DiscoveredEndpoint,
  type RawRequest,
} from './support/fuzz-inputs.js';
import { IMPORT_COLUMNS } from '../lib/listings/csv/columns.js';
import { type ApiResponse } from './support/http.js';
import { useShop } from './support/shop.js';
import { useTestServer } from './support/test-server.js';

/**
 * Random and hostile input against every endpoint, discovered from `api/` so that a new route is
 * fuzzed the moment it exists. Whatever arrives, the answer is an envelope with a status below
 * 500, and a refused write changes nothing. Callers hold the tokens the endpoint asks for, so that
 * validation (not authentication) is what gets exercised.
 */
const endpoints = await discoverEndpoints(path.resolve('api'));
const writes = endpoints.filter((endpoint) => endpoint.method !== 'GET');
const withBody = endpoints.filter((endpoint) => endpoint.schemas.body || endpoint.schemas.form);
const withForm = endpoints.filter((endpoint) => endpoint.schemas.form);
const withFile = endpoints.filter((endpoint) => endpoint.schemas.file);
const withParams = endpoints.filter((endpoint) => endpoint.params.length > 0);
const reads = endpoints.filter((endpoint) => endpoint.method === 'GET');

const RUNS = 20;
const label = ({ method, pattern, access }: DiscoveredEndpoint) => `${method} ${pattern} (${access})`;

// Outside services point at a closed loopback port: nothing here may leave the machine.
const server = useTestServer({ MESSENGER_API_ROOT: 'http://127.0.0.1:9', RESEND_BASE_URL: 'http://127.0.0.1:9', TRUST_PROXY: '1' });
const api = server.api;
const shop = useShop(server);

beforeAll(async () => {
  for (const endpoint of reads) {
    const plain = await send(endpoint, plausiblePath(endpoint), undefined, tokenFor(endpoint, false));
    const enveloped = plain.headers.get('content-type')?.startsWith('application/json') && typeof plain.body === 'object' && 'success' in plain.body;
    if (plain.status < 400 && !enveloped) unenveloped.add(endpoint);
  }
});

function storedFiles(): string[] {
  return fs.existsSync(server.uploadDir) ? fs.readdirSync(server.uploadDir).sort() : [];
}

interface RowCounts {
  users: number;
  listings: number;
  categories: number;
  agentCodes: number;
  configs: number;
  notifications: number;
}

async function rowCounts(): Promise<RowCounts> {
  const result = (await server.db.execute(sql`
    select (select count(*) from users)::int as "users",
           (select count(*) from listings)::int as "listings",
           (select count(*) from categories)::int as "categories",
           (select count(*) from agent_codes)::int as "agentCodes",
           (select count(*) from syndication_configs)::int as "configs",
           (select count(*) from notifications)::int as "notifications"`)) as unknown as { rows: RowCounts[] };
  return result.rows[0]!;
}

function tokenFor(endpoint: DiscoveredEndpoint, asAgent: boolean): string | undefined {
  if (endpoint.access === 'public') return undefined;
  return endpoint.access === 'admin' || !asAgent ? shop.admin.token : shop.agent.token;
}

/** Every client address gets its own rate-limit counters, so limits do not hide validation. */
let addressSequence = 0;
function send(endpoint: DiscoveredEndpoint, url: string, request: RawRequest | undefined, token: string | undefined): Promise<ApiResponse> {
  addressSequence += 1;
  const headers: Record<string, string> = { 'x-forwarded-for': `10.${(addressSequence >> 16) & 255}.${(addressSequence >> 8) & 255}.${addressSequence & 255}` };
  if (request?.contentType) headers['content-type'] = request.contentType;
  const body = request === undefined ? undefined : typeof request.body === 'string' ? new Uint8Array(Buffer.from(request.body)) : request.body;
  return api.send(endpoint.method, url, { token, headers, raw: body });
}

/**
 * Reads whose plain answer is not the envelope (health, the API document and its page): found by
 * asking each read once without input, so that a new such route needs no list kept here.
 */
const unenveloped = new Set<DiscoveredEndpoint>();

/** The envelope every answer must be, and a status below 500. */
function expectEnvelope(endpoint: DiscoveredEndpoint, response: ApiResponse, what: string): void {
  const context = `${label(endpoint)} with ${what}: ${response.status} ${response.text.slice(0, 300)}`;
  expect(response.status, context).toBeLessThan(500);
  if (response.status < 400 && unenveloped.has(endpoint)) return;
  expect(response.headers.get('content-type') ?? '', context).toMatch(/^application\/json/);
  const body = response.body as Record<string, unknown>;
  if (response.status >= 400) {
    expect(Object.keys(body).filter((key) => !['success', 'error', 'code', 'details'].includes(key)), context).toEqual([]);
    expect(body.success, context).toBe(false);
    expect(typeof body.error, context).toBe('string');
    expect(body.code, context).toMatch(/^[A-Z][A-Z_]+$/);
    if ('details' in body) expect(Array.isArray(body.details), context).toBe(true);
  } else {
    expect(body.success, context).toBe(true);
  }
}

/** Sends a write and, when it is refused, checks that no table it could touch has changed. */
async function sendAndCheck(endpoint: DiscoveredEndpoint, url: string, request: RawRequest | undefined, token: string | undefined, what: string): Promise<ApiResponse> {
  const before = await rowCounts();
  const response = await send(endpoint, url, request, token);
  expectEnvelope(endpoint, response, what);
  if (response.status >= 400) expect(await rowCounts(), `${label(endpoint)} with ${what} was refused (${response.status}) but changed rows`).toEqual(before);
  return response;
}

describe('route discovery', () => {
  it('finds the write, form, path and list endpoints to fuzz', () => {
    expect(writes.map(label)).toContain('POST /api/listings (token)');
    expect(withForm.map(label)).toContain('PATCH /api/listings/:id (token)');
    expect(withParams.map(label)).toContain('GET /api/public/listings/:id (public)');
    expect(reads.map(label)).toContain('GET /api/public/listings (public)');
    expect(withFile.map(label)).toContain('POST /api/listings/import (token)');
  });
});

describe.each(writes.filter((endpoint) => endpoint.schemas.body || endpoint.schemas.form).map((endpoint) => ({ endpoint, name: label(endpoint) })))(
  'hostile JSON bodies: $name',
  ({ endpoint }) => {
    it('answers each with an envelope below 500, and a refused one changes no rows', async () => {
      await fc.assert(
        fc.asyncProperty(hostileJsonBody(endpoint.bodyFields), fc.boolean(), async (request, asAgent) => {
          await sendAndCheck(endpoint, plausiblePath(endpoint), request, tokenFor(endpoint, asAgent), `body ${String(request.body).slice(0, 200)}`);
        }),
        { numRuns: RUNS, examples: jsonBodyExamples(endpoint.bodyFields).map((request) => [request, true]) },
      );
    });
  },
);

describe.each(withBody.map((endpoint) => ({ endpoint, name: label(endpoint) })))('malformed bodies: $name', ({ endpoint }) => {
  it('refuses broken JSON, other content types and bytes with a 4xx envelope, changing no rows', async () => {
    for (const request of MALFORMED_BODIES) {
      const response = await sendAndCheck(endpoint, plausiblePath(endpoint), request, tokenFor(endpoint, true), request.label);
      expect(response.status, `${label(endpoint)} with ${request.label}`).toBeGreaterThanOrEqual(400);
    }
  });

  it('answers 413 to a JSON body over 1 MB', async () => {
    const field = endpoint.bodyFields[0] ?? 'value';
    const response = await sendAndCheck(endpoint, plausiblePath(endpoint), { label: 'oversized', contentType: 'application/json', body: JSON.stringify({ [field]: OVERSIZED_STRING }) }, tokenFor(endpoint, true), 'a body over 1 MB');
    expect(response.status).toBe(413);
    expect(response.body.error).toMatch(/too large/i);
  });
});

describe.each(withForm.map((endpoint) => ({ endpoint, name: label(endpoint) })))('malformed multipart: $name', ({ endpoint }) => {
  it('refuses broken multipart bodies and unacceptable parts with a 4xx envelope, changing no rows or files', async () => {
    const filesBefore = storedFiles();
    for (const request of MALFORMED_MULTIPART) {
      const response = await sendAndCheck(endpoint, plausiblePath(endpoint), request, tokenFor(endpoint, true), request.label);
      expect(response.status, `${label(endpoint)} with ${request.label}`).toBeGreaterThanOrEqual(400);
    }
    expect(storedFiles()).toEqual(filesBefore);
  });
});

describe.each(withFile.map((endpoint) => ({ endpoint, name: label(endpoint) })))('hostile files: $name', ({ endpoint }) => {
  const columns = [...IMPORT_COLUMNS, 'attr:brand', 'attr:storage'];

  it('answers each with an envelope below 500, and a refused one changes no rows', async () => {
    await fc.assert(
      fc.asyncProperty(hostileCsvBody(columns), fc.boolean(), async (request, asAgent) => {
        await sendAndCheck(endpoint, plausiblePath(endpoint), request, tokenFor(endpoint, asAgent), `file ${Buffer.from(request.body).toString('utf8').slice(0, 200)}`);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses broken JSON, other content types and broken multipart bodies with a 4xx envelope, changing no rows', async () => {
    for (const request of [...MALFORMED_BODIES, ...MALFORMED_MULTIPART]) {
      const response = await sendAndCheck(endpoint, plausiblePath(endpoint), request, tokenFor(endpoint, true), request.label);
      expect(response.status, `${label(endpoint)} with ${request.label}`).toBeGreaterThanOrEqual(400);
    }
  });

  it('answers 413 to a file over its limit', async () => {
    const limit = endpoint.schemas.file!.maxBytes;
    const response = await sendAndCheck(endpoint, plausiblePath(endpoint), { label: 'oversized', contentType: endpoint.schemas.file!.mediaType, body: 'x'.repeat(limit + 1) }, tokenFor(endpoint, true), 'a file over its limit');
    expect(response.status).toBe(413);
    expect(response.body.error).toMatch(/too large/i);
  });
});

describe.each(withParams.map((endpoint) => ({ endpoint, name: label(endpoint) })))('hostile path values: $name', ({ endpoint }) => {
  it('answers each with an envelope below 500, changing no rows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...endpoint.params), hostilePathValue, { minKeys: 1 }), async (values) => {
        const url = pathWith(endpoint, values);
        const body = endpoint.method === 'GET' ? undefined : { label: 'empty object', contentType: 'application/json', body: '{}' };
        await sendAndCheck(endpoint, url, body, tokenFor(endpoint, false), `path ${url.slice(0, 200)}`);
      }),
      { numRuns: RUNS, examples: [[Object.fromEntries(endpoint.params.map((name) => [name, '\u0000']))]] },
    );
  });
});

describe.each(reads.map((endpoint) => ({ endpoint, name: label(endpoint) })))('hostile query strings: $name', ({ endpoint }) => {
  it('answers each with an envelope below 500, and pages only within bounds', async () => {
    await fc.assert(
      fc.asyncProperty(hostileQuery(endpoint.queryFields), fc.boolean(), async (query, asAgent) => {
        const response = await send(endpoint, `${plausiblePath(endpoint)}?${query}`, undefined, tokenFor(endpoint, asAgent));
        expectEnvelope(endpoint, response, `query ?${query.slice(0, 200)}`);
        const paging = (response.body as { pagination?: { page: number; limit: number } }).pagination;
        if (response.status === 200 && paging) {
          expect(paging.page).toBeGreaterThanOrEqual(1);
          expect(paging.limit).toBeGreaterThanOrEqual(1);
          expect(paging.limit).toBeLessThanOrEqual(100);
        }
      }),
      { numRuns: RUNS, examples: queryExamples(endpoint.queryFields).map((query) => [query, false]) },
    );
  });
});
