import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RouteHandler } from '../lib/http/route.js';
import { HTTP_METHODS } from '../lib/http/endpoint.js';
import { discoverRoutes } from '../lib/local-server/route-table.js';
import { ROUTE_MODULES } from '../api/_route-modules.js';
import { SELF_DESCRIBED_ROUTES, UNDOCUMENTED_ROUTES } from '../lib/openapi/route-modules.js';
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

/** The codes an operation documents for an error status. */
function codesOf(op: any, status: number): string[] {
  return op.responses[String(status)]?.content['application/json'].schema.properties.code.enum ?? [];
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
    expect(response.body).toEqual({ success: false, code: 'METHOD_NOT_ALLOWED', error: 'Method POST not allowed' });
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

  it('documents 429 RATE_LIMITED on exactly the operations whose endpoint declares a rate limit', async () => {
    const limited: string[] = [];
    for (const route of documentedRoutes) {
      const handler = ((await import(pathToFileURL(route.modulePath).href)) as { default: RouteHandler }).default;
      for (const method of HTTP_METHODS) {
        if (handler.endpoints[method]?.rateLimit) limited.push(`${method.toLowerCase()} ${openApiPath(route.pattern)}`);
      }
    }
    const answering429 = operations().filter(({ path: docPath, op }) => (docPath === '/api' || docPath.startsWith('/api/')) && !op.deprecated && codesOf(op, 429).length > 0);
    expect(answering429.map(({ method, path: docPath }) => `${method} ${docPath}`).sort()).toEqual(limited.sort());
    for (const { op } of answering429) expect(codesOf(op, 429)).toEqual(['RATE_LIMITED']);
    expect(limited).toEqual(expect.arrayContaining(['post /api/auth/register', 'post /api/auth/login', 'post /api/auth/forgot-password', 'post /api/syndication/trigger/{listingId}', 'get /api/listings/export']));
    expect(limited).not.toContain('post /api/auth/reset-password');
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
      } else {
        expect(op.security, where).toEqual(op['x-access'] === 'cron' ? [{ cronSecret: [] }] : [{ bearerAuth: [] }]);
        expect(codesOf(op, 401), where).toContain('UNAUTHENTICATED');
      }
    }
  });

  it('marks administrator-only operations and documents their 403', () => {
    const settingsWrite = doc.paths['/api/settings'].put;
    expect(settingsWrite['x-access']).toBe('admin');
    expect(settingsWrite.description).toContain('Administrators only');
    expect(codesOf(settingsWrite, 403)).toEqual(['FORBIDDEN']);
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

  it('lists query parameters with their real types, bounds and defaults', () => {
    const parameters = doc.paths['/api/public/listings'].get.parameters;
    const byName = Object.fromEntries(parameters.map((parameter: any) => [parameter.name, parameter]));
    expect(byName.limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 50 } });
    expect(byName.page.schema).toEqual({ type: 'integer', minimum: 1, maximum: 1_000_000 });
    expect(byName.priceMin.schema).toEqual({ type: 'number', minimum: 0 });
    expect(byName.sort.schema).toMatchObject({ type: 'string', enum: ['relevance', 'newest', 'price_asc', 'price_desc'] });
    const unreadOnly = doc.paths['/api/notifications'].get.parameters.find((parameter: any) => parameter.name === 'unreadOnly');
    expect(unreadOnly.schema).toEqual({ type: 'boolean', default: false });
    for (const name of ['category', 'q', 'priceMin', 'priceMax', 'brand', 'condition', 'storage']) expect(byName[name], name).toBeDefined();
  });

  it('takes path parameter schemas from the params schema', () => {
    const [id] = doc.paths['/api/listings/{id}'].get.parameters;
    expect(id).toEqual({ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
  });
});

describe('responses', () => {
  it('documents the error envelope with its stable codes, each with its status and meaning', () => {
    expect(doc.components.schemas.Error).toMatchObject({ required: ['success', 'error', 'code'], properties: { success: { const: false } } });
    expect(doc.components.schemas.Error.properties.code.enum).toEqual(doc.components.schemas.ErrorCode.enum);
    expect(doc.components.schemas.ErrorCode.enum).toEqual(expect.arrayContaining(['VALIDATION_FAILED', 'NOT_FOUND', 'UNAUTHENTICATED', 'FORBIDDEN', 'CONFLICT', 'RATE_LIMITED', 'DEPENDENCY_UNAVAILABLE']));
    expect(doc.components.schemas.ErrorCode.description).toContain('`RATE_LIMITED` (429): Too many requests');
  });

  it('documents every JSON success answer in full: the envelope and the shape of its data', () => {
    for (const { method, path: docPath, op } of operations()) {
      for (const [status, response] of Object.entries<any>(op.responses)) {
        const schema = response.content?.['application/json']?.schema;
        // The document itself and the health checks answer outside the envelope.
        if (!status.startsWith('2') || !schema || ['/api/openapi.json', '/api/health', '/health', '/api/health/ready'].includes(docPath)) continue;
        const resolved = schema.$ref ? resolvePointer(doc, schema.$ref) : schema;
        const where = `${method} ${docPath} ${status}`;
        expect(resolved, where).toMatchObject({ type: 'object', required: expect.arrayContaining(['success']) });
        const data = (resolved as any).properties.data;
        if (data) expect(['object', 'array'], where).toContain(data.type);
      }
    }
  });

  it('documents a listing with its properties, required keys, nullability, enums and items', () => {
    const listing = doc.paths['/api/listings/{id}'].get.responses['200'].content['application/json'].schema.properties.data;
    expect(listing.required).toEqual(expect.arrayContaining(['id', 'title', 'price', 'status', 'images', 'photos', 'attributes', 'category', 'agent', 'createdAt']));
    expect(listing.properties.status.enum).toEqual(['AVAILABLE', 'PENDING', 'SOLD', 'ARCHIVED']);
    expect(listing.properties.agent.anyOf).toContainEqual({ type: 'null' });
    expect(listing.properties.photos).toMatchObject({ type: 'array', items: { required: ['url', 'width', 'height', 'placeholder', 'srcset'] } });
    expect(listing.properties.createdAt).toEqual({ type: 'string', format: 'date-time' });
    const page = doc.paths['/api/listings'].get.responses['200'].content['application/json'].schema;
    expect(page.required).toEqual(['success', 'data', 'pagination']);
    expect(page.properties.data.items.properties.title.type).toBe('string');
  });

  it('documents the sign-in answer with its device token, and the legacy-client fields as optional', () => {
    const signIn = doc.paths['/api/auth/login'].post.responses['200'].content['application/json'].schema.properties.data;
    expect(signIn.required).toEqual(['user', 'token', 'deviceToken']);
    expect(signIn.properties.user.properties.email).toMatchObject({ type: 'string', format: 'email' });
    const profile = doc.paths['/api/auth/me'].get.responses['200'].content['application/json'].schema.properties.data;
    expect(profile.properties).toHaveProperty('firstName');
    expect(profile.required).not.toContain('firstName');
    const settings = doc.paths['/api/settings'].get.responses['200'].content['application/json'].schema.properties.data;
    expect(settings.required).toContain('siteName');
    expect(settings.required).not.toContain('whatsappNumber');
  });

  it('gives the reference page realistic examples: a sign-in with an e-mail, a listing with its attributes', () => {
    const signInBody = doc.paths['/api/auth/login'].post.requestBody.content['application/json'].schema.properties;
    expect(signInBody.email.examples[0]).toMatch(/^[\w.]+@example\.com$/);
    const signedIn = doc.paths['/api/auth/login'].post.responses['200'].content['application/json'].schema.properties.data.properties;
    expect(signedIn.user.properties.email.examples[0]).toMatch(/^[\w.]+@example\.com$/);
    expect(signedIn.token.examples[0]).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const listing = doc.paths['/api/listings/{id}'].get.responses['200'].content['application/json'].schema.properties.data.properties;
    expect(listing.attributes.examples[0]).toMatchObject({ brand: expect.any(String), model: expect.any(String) });
    expect(listing.title.examples[0]).toEqual(expect.stringMatching(/\w+ \w+/));
    const created = doc.paths['/api/listings'].post.requestBody.content['application/json'].schema.properties;
    expect(created.attributes.examples[0]).toEqual(listing.attributes.examples[0]);
    const category = doc.paths['/api/categories/{id}'].get.responses['200'].content['application/json'].schema.properties.data.properties;
    expect(category.schemaRules.examples[0]).toContainEqual(expect.objectContaining({ type: 'select', options: expect.any(Array) }));
  });

  it('documents a photo with its url, intrinsic size, placeholder and srcset, sizes nullable until described', () => {
    const photo = doc.components.schemas.Photo;
    expect(photo.required).toEqual(['url', 'width', 'height', 'placeholder', 'srcset']);
    expect(photo.properties.width.anyOf).toEqual([{ type: 'integer' }, { type: 'null' }]);
    expect(photo.properties.placeholder.anyOf).toEqual([{ type: 'string' }, { type: 'null' }]);
    expect(photo.properties.srcset.type).toBe('string');
    expect(doc.paths['/api/public/listings'].get.description).toContain('`heroPhoto` and `photos`');
  });

  it('documents the statuses each operation can answer, and per status the codes it may carry', () => {
    const create = doc.paths['/api/listings'].post.responses;
    expect(Object.keys(create)).toEqual(['201', '400', '401', '403', '404', '409', '413', '415', '422', '500', '502', '503']);
    expect(codesOf(doc.paths['/api/listings'].post, 409)).toEqual(['CONFLICT', 'NOT_CONFIGURED', 'IDEMPOTENCY_KEY_IN_PROGRESS']);
    const login = doc.paths['/api/auth/login'].post;
    expect(Object.keys(login.responses)).toEqual(['200', '400', '401', '413', '415', '429', '500', '503']);
    expect(codesOf(login, 400)).toEqual(['VALIDATION_FAILED', 'MALFORMED_BODY']);
    expect(codesOf(login, 401)).toEqual(['INVALID_CREDENTIALS']);
    expect(login.responses['429'].headers).toHaveProperty('Retry-After');
    expect(Object.keys(doc.paths['/api/categories/{id}'].delete.responses)).toEqual(['200', '400', '401', '403', '404', '409', '500', '503']);
    for (const { op } of operations()) expect(codesOf(op, 500)).toEqual(['INTERNAL_ERROR']);
  });

  it('describes a 422 by the codes the operation may answer: attribute rules only where listings are written', () => {
    const category = doc.paths['/api/categories'].post.responses['422'];
    expect(codesOf(doc.paths['/api/categories'].post, 422)).toEqual(['IDEMPOTENCY_KEY_REUSED']);
    expect(category.description).toBe('The Idempotency-Key was used before with a different request');
    expect(codesOf(doc.paths['/api/listings/{id}'].patch, 422)).toEqual(['ATTRIBUTES_INVALID']);
    expect(doc.paths['/api/listings/{id}'].patch.responses['422'].description).not.toContain('Idempotency-Key');
    expect(codesOf(doc.paths['/api/listings'].post, 422)).toEqual(['ATTRIBUTES_INVALID', 'IDEMPOTENCY_KEY_REUSED']);
  });
});
