import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { newestPhones, shopClient } from '../docs/examples/typed-client.js';
import { ALL_ERROR_CODES, ERROR_CODES } from '../lib/http/error-codes.js';
import { API_TYPES_FILE, apiTypesSource } from '../scripts/api-types.js';
import { answerContract, type AnswerContract, type ReceivedAnswer } from './support/answer-contract.js';
import { buildCategory, buildListing } from './support/catalog-factories.js';
import { makeTempDir } from './support/databases.js';
import { buildAgent } from './support/factories.js';
import { apiClient } from './support/http.js';
import { useTestServer } from './support/test-server.js';

const server = useTestServer();
const api = server.api;
let document: Record<string, any>;
let contract: AnswerContract;

beforeAll(async () => {
  document = (await api.get('/api/openapi.json')).body;
  contract = answerContract(document);
});

async function listingAnswer(): Promise<ReceivedAnswer> {
  const agent = await buildAgent(server.db);
  const category = await buildCategory(server.db);
  const listing = await buildListing(server.db, { categoryId: category.id, agentId: agent.id });
  const path = `/api/listings/${listing.id}`;
  const response = await api.get(path, { token: agent.token });
  return { method: 'GET', path, status: response.status, contentType: response.headers.get('content-type'), body: response.body, text: response.text };
}

describe('the answer checker every test goes through', () => {
  it('passes a listing answer as the service gives it', async () => {
    expect(contract.mismatchOf(await listingAnswer())).toBeUndefined();
  });

  it('fails an answer missing a documented required field', async () => {
    const answer = await listingAnswer();
    const { title: _title, ...withoutTitle } = (answer.body as { data: Record<string, unknown> }).data;
    expect(contract.mismatchOf({ ...answer, body: { success: true, data: withoutTitle } })).toMatch(/GET \/api\/listings\/.+ answered 200: the answer does not match its documented schema: \/data must have required property 'title'/);
  });

  it('fails a field of the wrong type, a value outside its enum, and a null where none is allowed', async () => {
    const answer = await listingAnswer();
    const data = (answer.body as { data: Record<string, unknown> }).data;
    for (const wrong of [{ price: '899.99' }, { status: 'GONE' }, { title: null }]) {
      expect(contract.mismatchOf({ ...answer, body: { success: true, data: { ...data, ...wrong } } }), JSON.stringify(wrong)).toContain('does not match its documented schema');
    }
  });

  it('fails an error code the operation does not document, and an error without a code', () => {
    const notFound = { method: 'GET', path: '/api/categories/8f14e45f-ceea-467f-a0e6-13c0b1f3b6a1', status: 404, contentType: 'application/json', text: '' };
    expect(contract.mismatchOf({ ...notFound, body: { success: false, error: 'Category not found', code: 'NOT_FOUND' } })).toBeUndefined();
    expect(contract.mismatchOf({ ...notFound, status: 429, body: { success: false, error: 'Too many requests', code: 'RATE_LIMITED' } })).toContain('the status is not documented');
    expect(contract.mismatchOf({ ...notFound, body: { success: false, error: 'Category not found', code: 'RATE_LIMITED' } })).toContain('/code must be equal to one of the allowed values');
    expect(contract.mismatchOf({ ...notFound, body: { success: false, error: 'Category not found' } })).toContain("must have required property 'code'");
  });

  it('fails an answer of a type the operation does not document', () => {
    const page = { method: 'GET', path: '/api/docs', status: 200, contentType: 'application/json', body: {}, text: '{}' };
    expect(contract.mismatchOf(page)).toContain('is not documented for this status');
  });

  it('makes a test fail when a server answers outside its document', async () => {
    const listing = JSON.parse((await listingAnswer()).text) as { data: Record<string, unknown> };
    const served = JSON.stringify(document);
    const wrong = http.createServer((req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(req.url === '/api/openapi.json' ? served : JSON.stringify({ success: true, data: { ...listing.data, viewsCount: 'many' } }));
    });
    await new Promise<void>((resolve) => wrong.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = wrong.address() as AddressInfo;
      await expect(apiClient(`http://127.0.0.1:${port}`).get(`/api/listings/${listing.data.id as string}`)).rejects.toThrow(
        /Answer outside the API contract: GET \/api\/listings\/.+ answered 200: .*\/data\/viewsCount must be integer/,
      );
    } finally {
      wrong.closeAllConnections();
      await new Promise<void>((resolve) => wrong.close(() => resolve()));
    }
  });
});

describe('error codes', () => {
  it('are listed with their statuses in the document and in docs/contract.md', () => {
    const page = fs.readFileSync('docs/contract.md', 'utf8');
    expect(document.components.schemas.ErrorCode.enum).toEqual(ALL_ERROR_CODES);
    for (const code of ALL_ERROR_CODES) expect(page, code).toContain(`| \`${code}\` | ${ERROR_CODES[code].status} |`);
  });
});

describe('client types generated from the document', () => {
  it('are committed as the document generates them (run `npm run api:types` after changing an answer)', async () => {
    expect(fs.readFileSync(API_TYPES_FILE, 'utf8')).toBe(await apiTypesSource());
  });

  it("are what another project gets from the README's line, openapi-typescript run against the running server", { timeout: 120_000 }, async () => {
    const otherProject = makeTempDir('other-project');
    try {
      const written = path.join(otherProject, 'api.d.ts');
      await promisify(execFile)(path.resolve('node_modules/.bin/openapi-typescript'), [`${server.baseUrl}/api/openapi.json`, '-o', written], { timeout: 110_000 });
      const declarations = (source: string) => source.slice(source.indexOf('export interface paths'));
      const generated = declarations(fs.readFileSync(written, 'utf8'));
      expect(generated).toContain('"/api/public/listings": {');
      expect(generated).toBe(declarations(fs.readFileSync(API_TYPES_FILE, 'utf8')));
    } finally {
      fs.rmSync(otherProject, { recursive: true, force: true });
    }
  });

  it('type the README\'s call, which reads the storefront through them', async () => {
    const agent = await buildAgent(server.db);
    const phones = await buildCategory(server.db, { name: 'PHONES', displayName: 'Phones' });
    await buildListing(server.db, { categoryId: phones.id, agentId: agent.id, title: 'Pixel 8', price: 499, createdAt: new Date(Date.now() - 60_000) });
    await buildListing(server.db, { categoryId: phones.id, agentId: agent.id, title: 'iPhone 15 Pro', price: 999.99 });
    expect(await newestPhones(shopClient(server.baseUrl), 10)).toEqual(['iPhone 15 Pro: 999.99', 'Pixel 8: 499']);
  });

  it('carry the stable code of an error answer', async () => {
    const client = shopClient(server.baseUrl);
    await expect(newestPhones(client, 0)).rejects.toThrow('VALIDATION_FAILED: Invalid query: limit: must be at least 1');
  });
});
