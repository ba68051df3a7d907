import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RouteHandler } from '../lib/http/route.js';
import { HTTP_METHODS } from '../lib/http/endpoint.js';
import { discoverRoutes } from '../lib/local-server/route-table.js';
import { ROUTE_MODULES, SELF_DESCRIBED_ROUTES, UNDOCUMENTED_ROUTES } from '../lib/openapi/route-modules.js';
import { useTestServer } from './support/test-server.js';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../api');
const documentedRoutes = discoverRoutes(apiDir).filter((route) => !UNDOCUMENTED_ROUTES.includes(route.pattern));
const openApiPath = (pattern: string) => pattern.replace(/:(\w+)/g, '{$1}');

const server = useTestServer();
const api = server.api;
let doc: any;

beforeAll(async () => {
  doc = (await api.get('/api/openapi.json')).body;
});

type Operation = { method: string; path: string; op: any };

function operations(): Operation[] {
  return Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([docPath, item]) =>
    Object.entries(item).map(([method, op]) => ({ method, path: docPath, op })),
  );
}

function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), root);
}

function collectRefs(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => collectRefs(item, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else collectRefs(value, found);
    }
  }
  return found;
}

describe('GET /api/openapi.json', () => {
  it('serves the document publicly as JSON, outside the envelope', async () => {
    const response = await api.get('/api/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.body).not.toHaveProperty('success');
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body).toEqual(doc);
  });

  it('answers another method with 405 and the allowed methods', async () => {
    const response = await api.post('/api/openapi.json', { json: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, OPTIONS');
    expect(response.body).toEqual({ success: false, error: 'Method POST not allowed' });
  });
});

describe('coverage of the api/ functions', () => {
  it('lists every api/ function in the static route list the document is built from', () => {
    expect([...Object.keys(ROUTE_MODULES), ...SELF_DESCRIBED_ROUTES].sort()).toEqual(documentedRoutes.map((route) => route.pattern).sort());
  });

  it('documents every method of every api/ function, with its access', async () => {
    const documented = new Set<string>();
    for (const route of documentedRoutes) {
      const handler = ((await import(pathToFileURL(route.modulePath).href)) as { default: RouteHandler }).default;
      for (const method of HTTP_METHODS) {
        const endpoint = handler.endpoints[method];
        if (!endpoint) continue;
        const op = doc.paths[openApiPath(route.pattern)]?.[method.toLowerCase()];
        expect(op, `${method} ${route.pattern}`).toBeDefined();
        expect(op['x-access'], `${method} ${route.pattern}`).toBe(endpoint.access);
        documented.add(`${method.toLowerCase()} ${openApiPath(route.pattern)}`);
      }
    }
    const apiOperations = operations().filter(({ path: docPath, op }) => (docPath === '/api' || docPath.startsWith('/api/')) && !op.deprecated);
    expect(apiOperations.map(({ method, path: docPath }) => `${method} ${docPath}`).sort()).toEqual([...documented].sort());
  });

  it("documents the original service's paths as deprecated aliases naming the path to use", () => {
    const aliases = operations().filter(({ op }) => op.deprecated);
    expect(aliases.map(({ method, path: docPath }) => `${method} ${docPath}`).sort()).toEqual([
      'get /api/public/telegram-bot',
      'get /api/syndication/telegram/info',
      'get /api/syndication/telegram/webhook-info',
      'post /api/syndication/telegram/setup-webhook',
      'post /api/syndication/telegram/webhook',
    ]);
    expect(doc.paths['/api/public/telegram-bot'].get.description).toContain('use GET /api/public/messenger-bot');
  });

  it('documents the /health alias as the liveness check', () => {
    expect(doc.paths['/health'].get).toMatchObject({ summary: 'Liveness', security: [], 'x-access': 'public' });
    expect(doc.paths['/health'].get.operationId).not.toBe(doc.paths['/api/health'].get.operationId);
  });

  it('leaves out the not-found fallback, which is no operation of its own', () => {
    expect(doc.paths['/api/not-found']).toBeUndefined();
  });
});

describe('structural validity (OpenAPI 3.1)', () => {
  it('has the required top-level fields', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(typeof doc.info.title).toBe('string');
    expect(typeof doc.info.version).toBe('string');
    expect(typeof doc.paths).toBe('object');
    expect(Object.keys(doc.paths).every((docPath) => docPath.startsWith('/'))).toBe(true);
  });

  it('gives every operation a unique id, a tag, a summary and responses with descriptions', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tagNames = new Set(doc.tags.map((tag: { name: string }) => tag.name));
    for (const { method, path: docPath, op } of operations()) {
      const where = `${method} ${docPath}`;
      expect(typeof op.summary, where).toBe('string');
      expect(op.tags.every((tag: string) => tagNames.has(tag)), where).toBe(true);
      expect(Object.keys(op.responses).length, where).toBeGreaterThan(1);
      for (const [status, response] of Object.entries<any>(op.responses)) {
        expect(status, where).toMatch(/^[1-5]\d\d$/);
        const resolved = response.$ref ? resolvePointer(doc, response.$ref) : response;
        expect((resolved as { description?: unknown }).description, `${where} ${status}`).toEqual(expect.any(String));
      }
    }
  });

  it('resolves every $ref', () => {
    const refs = collectRefs(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(resolvePointer(doc, ref), ref).toBeDefined();
  });

  it('declares each {param} of a path as a required path parameter, and no other', () => {
    for (const { method, path: docPath, op } of operations()) {
      const inTemplate = [...docPath.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      const declared = op.parameters.filter((parameter: any) => parameter.in === 'path');
      expect(declared.map((parameter: any) => parameter.name).sort(), `${method} ${docPath}`).toEqual(inTemplate);
      expect(declared.every((parameter: any) => parameter.required === true && parameter.schema), `${method} ${docPath}`).toBe(true);
    }
  });

  it('names only defined security schemes', () => {
    const schemes = Object.keys(doc.components.securitySchemes);
    for (const { op } of operations()) {
      for (const requirement of op.security) expect(Object.keys(requirement).every((name) => schemes.includes(name))).toBe(true);
    }
  });
});

describe('security requirements', () => {
  it("asks for the bearer JWT on token and admin operations, the scheduler's secret on cron ones and nothing on public ones", () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(doc.components.securitySchemes.cronSecret).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const { method, path: docPath, op } of operations()) {
      const where = `${method} ${docPath}`;
      if (op['x-access'] === 'public') {
        expect(op.security, where).toEqual([]);
        expect(op.responses['401'], where).toBeUndefined();
      } else {
        expect(op.security, where).toEqual(op['x-access'] === 'cron' ? [{ cronSecret: [] }] : [{ bearerAuth: [] }]);
        expect(op.responses['401'], where).toEqual({ $ref: '#/components/responses/Unauthorized' });
      }
    }
  });

  it('marks administrator-only operations and documents their 403', () => {
    const settingsWrite = doc.paths['/api/settings'].put;
    expect(settingsWrite['x-access']).toBe('admin');
    expect(settingsWrite.description).toContain('Administrators only');
    expect(settingsWrite.responses['403']).toEqual({ $ref: '#/components/responses/Forbidden' });
    expect(doc.paths['/api/settings'].get.security).toEqual([]);
  });
});

describe('answers the CDN may keep', () => {
  it('documents If-None-Match, the 304 and the caching headers on exactly the cacheable public reads', () => {
    const cached = operations().filter(({ op }) => op.responses['304']);
    expect(cached.map(({ method, path: docPath }) => `${method} ${docPath}`).sort()).toEqual([
      'get /api/categories',
      'get /api/categories/{id}',
      'get /api/public/filter-options',
      'get /api/public/listings',
      'get /api/public/messenger-bot',
      'get /api/public/suggest',
      'get /api/public/telegram-bot',
      'get /api/settings',
    ]);
    for (const { method, path: docPath, op } of cached) {
      const where = `${method} ${docPath}`;
      expect(op.parameters.find((parameter: any) => parameter.in === 'header'), where).toMatchObject({ name: 'If-None-Match', required: false });
      for (const status of ['200', '304']) {
        expect(Object.keys(op.responses[status].headers), `${where} ${status}`).toEqual(['Cache-Control', 'ETag']);
        expect(op.responses[status].headers['Cache-Control'].schema.const, `${where} ${status}`).toMatch(/^public, max-age=0, s-maxage=([1-5]?\d|60), stale-while-revalidate=\d+$/);
      }
      expect(op.description, where).toContain('Vercel-Cache-Tag');
    }
  });

  it('leaves the public detail, which counts a view, uncached', () => {
    const detail = doc.paths['/api/public/listings/{id}'].get;
    expect(detail.responses['304']).toBeUndefined();
    expect(detail.responses['200'].headers).toBeUndefined();
  });
});

describe('inputs from the validation schemas', () => {
  it('describes a JSON body with its required fields and constraints', () => {
    const body = doc.paths['/api/auth/register'].post.requestBody;
    const schema = body.content['application/json'].schema;
    expect(body.required).toBe(true);
    expect(schema.required).toEqual(expect.arrayContaining(['email', 'password', 'name', 'phone', 'agentCode']));
    expect(schema.properties.password).toMatchObject({ type: 'string', minLength: 8 });
    expect(schema.properties.agentCode).toMatchObject({ type: 'string', pattern: '^\\d{6}$' });
    expect(schema).not.toHaveProperty('$schema');
  });

  it('describes a listing write as multipart with up to 10 image files, and as JSON without them', () => {
    const body = doc.paths['/api/listings'].post.requestBody;
    const multipart = body.content['multipart/form-data'].schema;
    expect(multipart.properties.images).toMatchObject({ type: 'array', maxItems: 10, items: { type: 'string', format: 'binary' } });
    expect(multipart.properties.title).toMatchObject({ type: 'string', maxLength: 200 });
    expect(multipart.properties.status).toMatchObject({ enum: ['AVAILABLE', 'PENDING', 'SOLD', 'ARCHIVED'] });
    expect(Object.keys(multipart.properties)).toEqual(expect.arrayContaining(['price', 'categoryId', 'agentId', 'attributes', 'stockQuantity']));
    expect(body.content['application/json'].schema.properties).not.toHaveProperty('images');
  });

  it('lists query parameters with their defaults', () => {
    const parameters = doc.paths['/api/public/listings'].get.parameters;
    const byName = Object.fromEntries(parameters.map((parameter: any) => [parameter.name, parameter]));
    expect(byName.limit).toMatchObject({ in: 'query', required: false, schema: { default: '50' } });
    for (const name of ['category', 'q', 'priceMin', 'priceMax', 'brand', 'condition', 'storage']) expect(byName[name], name).toBeDefined();
  });

  it('takes path parameter schemas from the params schema', () => {
    const [id] = doc.paths['/api/listings/{id}'].get.parameters;
    expect(id).toEqual({ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
  });
});

describe('responses', () => {
  it('documents the success and error envelopes', () => {
    expect(doc.components.schemas.Error).toMatchObject({ required: ['success', 'error'], properties: { success: { const: false } } });
    expect(doc.components.schemas.Success.properties.success).toEqual({ const: true });
    expect(doc.paths['/api/listings'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PaginatedSuccess' });
    expect(doc.components.responses.MethodNotAllowed.headers).toHaveProperty('Allow');
  });

  it('documents a photo with its url, intrinsic size, placeholder and srcset, sizes nullable until described', () => {
    const photo = doc.components.schemas.Photo;
    expect(photo.required).toEqual(['url', 'width', 'height', 'placeholder', 'srcset']);
    expect(photo.properties.width.type).toEqual(['integer', 'null']);
    expect(photo.properties.placeholder.type).toEqual(['string', 'null']);
    expect(photo.properties.srcset.type).toBe('string');
    expect(doc.paths['/api/public/listings'].get.description).toContain('`heroPhoto` and `photos`');
  });

  it('documents the statuses each operation can answer', () => {
    const create = doc.paths['/api/listings'].post.responses;
    expect(Object.keys(create)).toEqual(['201', '400', '401', '403', '404', '409', '413', '415', '422', '500', '502']);
    expect(Object.keys(doc.paths['/api/auth/login'].post.responses)).toEqual(['200', '400', '413', '429', '500']);
    expect(doc.components.responses.TooManyRequests.headers).toHaveProperty('Retry-After');
    expect(Object.keys(doc.paths['/api/categories/{id}'].delete.responses)).toEqual(['200', '400', '401', '403', '404', '409', '500']);
    for (const { op } of operations()) expect(op.responses['500']).toEqual({ $ref: '#/components/responses/InternalError' });
  });
});
