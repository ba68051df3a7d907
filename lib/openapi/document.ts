import * as v from 'valibot';
import packageJson from '../../package.json' with { type: 'json' };
import { CACHE_TAG_HEADER, EDGE_CACHE_CONTROL } from '../http/edge-cache.js';
import { ALL_ERROR_CODES, ERROR_CODES, type ErrorCode } from '../http/error-codes.js';
import { HTTP_METHODS, type Endpoint, type HttpMethod } from '../http/endpoint.js';
import type { FileBodySpec } from '../http/file-body.js';
import type { SuccessAnswer } from '../http/success-answer.js';
import { PhotoView } from '../media/photo-view.js';
import { answerJsonSchema, requestJsonSchema, type JsonSchema } from './json-schema.js';
import { OPENAPI_DOCUMENT_OPERATION } from './document-operation.js';
import { queryValueSchema } from './query-values.js';
import { DEPRECATED_ALIASES, ROUTE_ALIASES, type RouteModules } from './route-modules.js';

type OpenApiObject = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info: OpenApiObject;
  servers: OpenApiObject[];
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Partial<Record<Lowercase<HttpMethod>, OpenApiObject>>>;
  components: OpenApiObject;
}

/** Tags by path prefix, most specific first; the order of TAGS is the order of the reference page. */
const TAGS: Array<{ name: string; description: string; prefixes: string[] }> = [
  { name: 'Auth', description: 'Sign-up with an invitation code, sign-in, profile and password reset', prefixes: ['/api/auth'] },
  { name: 'Agents', description: 'Invitation codes and registered agents (administrators)', prefixes: ['/api/auth/agent-codes', '/api/auth/agents'] },
  { name: 'Categories', description: 'Categories and the attribute rules of their listings', prefixes: ['/api/categories', '/api/admin/seed-categories'] },
  { name: 'Listings', description: 'Listings with category attributes and images', prefixes: ['/api/listings', '/api/uploads'] },
  { name: 'Storefront', description: 'Public search, detail, filters and inquiry clicks; no token', prefixes: ['/api/public'] },
  { name: 'Channel posting', description: 'Posting listings to a messaging channel through a bot', prefixes: ['/api/syndication'] },
  { name: 'Notifications', description: 'In-app notifications of the caller', prefixes: ['/api/notifications'] },
  { name: 'Commissions', description: 'Commission and asset figures (administrators)', prefixes: ['/api/commissions'] },
  { name: 'Settings', description: 'Store settings', prefixes: ['/api/settings'] },
  { name: 'Health', description: 'Liveness and readiness', prefixes: ['/api/health', '/health'] },
  { name: 'Operations', description: 'The audit trail and scheduled work, called by the platform\'s scheduler', prefixes: ['/api/cron', '/api/admin/audit'] },
  { name: 'Reference', description: 'The service, this document and its reference page', prefixes: ['/', '/api', '/api/openapi.json', '/api/docs'] },
];

function tagOf(pattern: string): string {
  const matches = TAGS.flatMap((tag) =>
    tag.prefixes.filter((prefix) => pattern === prefix || pattern.startsWith(`${prefix}/`)).map((prefix) => ({ tag, prefix })),
  );
  const best = matches.sort((a, b) => b.prefix.length - a.prefix.length)[0];
  return best?.tag.name ?? 'Other';
}

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: OpenApiObject) => ({ 'application/json': { schema } });

/**
 * How each error status is described; its body is the error envelope with the operation's codes of
 * that status. A 422 has no general meaning: it is described by the codes the operation answers.
 */
const ERROR_STATUSES: Record<number, { description?: string; headers?: OpenApiObject }> = {
  400: { description: 'Invalid input: `details` lists each field at fault' },
  401: { description: 'Missing, malformed, invalid or expired token, or the user no longer exists' },
  403: { description: 'The role may not call this, or the record belongs to another agent' },
  404: { description: 'No record with that id' },
  405: { description: 'The path does not answer this method', headers: { Allow: { schema: { type: 'string' }, description: 'The methods the path answers' } } },
  409: { description: 'A unique value is taken, or the record is not in a state that allows this' },
  413: { description: 'A body over the endpoint\'s limit' },
  415: { description: 'The body\'s Content-Type is not one the endpoint reads' },
  422: {},
  429: { description: 'Rate limit reached', headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until the next attempt is accepted' } } },
  500: { description: 'Unexpected failure (`Internal server error`)' },
  502: { description: 'An outside service (image host, Bot API) failed' },
  503: { description: 'A dependency is unavailable; try again', headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait before trying again' } } },
};

/** The error envelope whose `code` is one of `codes`. */
function errorSchema(codes: readonly ErrorCode[]): OpenApiObject {
  return {
    type: 'object',
    required: ['success', 'error', 'code'],
    properties: {
      success: { const: false },
      error: { type: 'string', description: 'What went wrong, in English (the spec\'s message)' },
      code: { type: 'string', enum: codes, description: 'The stable identifier of the case: branch on this, not on `error`' },
      details: { type: 'array', items: schemaRef('ErrorDetail') },
    },
  };
}

const COMPONENT_SCHEMAS: Record<string, OpenApiObject> = {
  MessageSuccess: {
    type: 'object',
    required: ['success', 'message'],
    properties: { success: { const: true }, message: { type: 'string' } },
  },
  Acknowledgement: { type: 'object', required: ['success'], properties: { success: { const: true } } },
  Pagination: {
    type: 'object',
    required: ['page', 'limit', 'total', 'totalPages', 'totalExact'],
    properties: {
      page: { type: 'integer' },
      limit: { type: 'integer', description: 'The limit applied: the one asked for, capped to the list maximum.' },
      total: {
        type: 'integer',
        description:
          'Matching items, exact below 10,000, never an estimate. From 10,000 matches on, a storefront list says 10,000 and totalExact is false (as search engines answer "10,000+"), whatever its filters; other lists do the same when filtered by more than status, category, agent or commission, and otherwise give their kept count, exact at any size. An agent\'s channel log counts to 1,000 the same way.',
      },
      totalPages: { type: 'integer', description: 'ceil(total / limit), within the served results of a storefront list.' },
      totalExact: { type: 'boolean', description: 'False when more items match than total says (total is then the counting limit); true otherwise.' },
    },
  },
  Health: {
    type: 'object',
    required: ['status', 'timestamp'],
    properties: {
      status: { const: 'ok' },
      timestamp: { type: 'string', format: 'date-time' },
      checks: { type: 'object', additionalProperties: { type: 'string' } },
    },
  },
  Error: errorSchema(ALL_ERROR_CODES),
  ErrorCode: {
    type: 'string',
    enum: ALL_ERROR_CODES,
    description: ALL_ERROR_CODES.map((code) => `\`${code}\` (${ERROR_CODES[code].status}): ${ERROR_CODES[code].description}.`).join('\n\n'),
  },
  Photo: answerJsonSchema(PhotoView),
  ErrorDetail: {
    type: 'object',
    required: ['field', 'message'],
    properties: { field: { type: 'string' }, message: { type: 'string' }, received: { description: 'The value sent, when it helps' } },
  },
};

const ASSET_TYPES = ['text/css', 'text/javascript', 'image/png'];

type DataAnswer = Extract<SuccessAnswer, { kind: 'data' }>;
type PagesAnswer = Extract<SuccessAnswer, { kind: 'pages' }>;

/** The success envelope of `data`, with the members beside it, and `pagination` when the list pages (required, or only when a page is asked for). */
function envelope(data: v.GenericSchema, beside: Record<string, v.GenericSchema>, pagination: 'none' | PagesAnswer['pagination']): OpenApiObject {
  const besideSchemas = Object.fromEntries(Object.entries(beside).map(([name, schema]) => [name, answerJsonSchema(schema)]));
  const paging = pagination === 'none' ? {} : { pagination: schemaRef('Pagination') };
  return {
    type: 'object',
    required: ['success', 'data', ...Object.keys(besideSchemas), ...(pagination === 'always' ? ['pagination'] : [])],
    properties: { success: { const: true }, data: answerJsonSchema(data), ...besideSchemas, ...paging },
  };
}

/** A success answer that a browser asking for `text/html` gets as a page instead. */
function withPage(response: OpenApiObject): OpenApiObject {
  return { ...response, content: { ...(response.content as OpenApiObject), 'text/html': { schema: { type: 'string' } } } };
}

function dataResponse(answer: DataAnswer): OpenApiObject {
  const response = { description: 'The `data` envelope', content: json(envelope(answer.data, answer.beside, 'none')) };
  return answer.htmlForBrowsers ? withPage(response) : response;
}

function successResponse(answer: SuccessAnswer, where: string): OpenApiObject {
  switch (answer.kind) {
    case 'data':
      return dataResponse(answer);
    case 'pages':
      return { description: 'A page of results', content: json(envelope(v.array(answer.item), {}, answer.pagination)) };
    case 'message':
      return { description: 'Done', content: json(schemaRef('MessageSuccess')) };
    case 'acknowledgement':
      return { description: 'Acknowledged', content: json(schemaRef('Acknowledgement')) };
    case 'health':
      return { description: 'Healthy (no envelope)', content: json(schemaRef('Health')) };
    case 'document':
      return { description: 'An OpenAPI 3.1 document', content: json({ type: 'object' }) };
    case 'html':
      return { description: 'An HTML page', content: { 'text/html': { schema: { type: 'string' } } } };
    case 'asset':
      return { description: 'The file', content: Object.fromEntries(ASSET_TYPES.map((type) => [type, { schema: { type: 'string' } }])) };
    case 'csv':
      return {
        description: 'A CSV file (RFC 4180, UTF-8 with a byte order mark), streamed',
        headers: { 'Content-Disposition': { schema: { type: 'string' }, description: '`attachment; filename="listings-<date>.csv"`' } },
        content: { 'text/csv': { schema: { type: 'string' } } },
      };
    case 'none':
      throw new Error(`${where} never succeeds: it is no operation to document`);
  }
}

/** What the document reads of an endpoint: its declaration, never its handler. */
type DescribedEndpoint = Omit<Endpoint, 'handle'>;

/** The headers of an answer the CDN may keep, on its 200 and its 304 alike. */
const EDGE_CACHE_HEADERS: OpenApiObject = {
  'Cache-Control': { schema: { type: 'string', const: EDGE_CACHE_CONTROL }, description: 'The CDN may keep the answer; browsers revalidate it with the ETag' },
  ETag: { schema: { type: 'string' }, description: 'A weak validator of the answer, to send back in `If-None-Match`' },
};

const IF_NONE_MATCH_PARAMETER: OpenApiObject = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'ETags of answers the client holds (or `*`): when one is the current answer, 304 without a body.',
};

const EDGE_CACHE_NOTE = `Cached by the CDN: \`${EDGE_CACHE_CONTROL}\`, filed under the tags of what it shows (the \`${CACHE_TAG_HEADER}\` header, which the CDN strips), which every write that changes it purges. Errors are not cached.`;

/** The codes an operation may answer: those its access, inputs and options imply, and those it declares. */
function errorCodesOf(endpoint: DescribedEndpoint): ErrorCode[] {
  const { access, schemas } = endpoint;
  const codes = new Set<ErrorCode>(endpoint.errors);
  if (schemas.params || schemas.query || schemas.body || schemas.form) codes.add('VALIDATION_FAILED');
  if (access !== 'public') codes.add('UNAUTHENTICATED');
  if (access === 'admin' || (access === 'token' && schemas.params)) codes.add('FORBIDDEN');
  if (schemas.params) codes.add('NOT_FOUND');
  if (schemas.file) codes.add('VALIDATION_FAILED');
  if (schemas.body || schemas.form || schemas.file) {
    codes.add('MALFORMED_BODY');
    codes.add('PAYLOAD_TOO_LARGE');
    codes.add('UNSUPPORTED_MEDIA_TYPE');
  }
  if (schemas.form) codes.add('UNSUPPORTED_IMAGE');
  if (endpoint.rateLimit) codes.add('RATE_LIMITED');
  if (endpoint.idempotent) {
    codes.add('VALIDATION_FAILED');
    codes.add('IDEMPOTENCY_KEY_IN_PROGRESS');
    codes.add('IDEMPOTENCY_KEY_REUSED');
  }
  codes.add('INTERNAL_ERROR');
  codes.add('DEPENDENCY_UNAVAILABLE');
  return ALL_ERROR_CODES.filter((code) => codes.has(code));
}

/** One response per error status, each listing the codes of that status the operation may answer. */
function errorResponses(codes: readonly ErrorCode[]): OpenApiObject {
  const statuses = [...new Set(codes.map((code) => ERROR_CODES[code].status))];
  return Object.fromEntries(
    statuses.map((status) => {
      const ofStatus = codes.filter((code) => ERROR_CODES[code].status === status);
      const { description = ofStatus.map((code) => ERROR_CODES[code].description).join('. '), headers } = ERROR_STATUSES[status]!;
      return [status, { description, ...(headers ? { headers } : {}), content: json(errorSchema(ofStatus)) }];
    }),
  );
}

function propertiesOf(schema: JsonSchema): Array<{ name: string; schema: JsonSchema; required: boolean }> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, schema: property, required: required.has(name) }));
}

/** The optional `Idempotency-Key`, on every creating request. */
const IDEMPOTENCY_KEY_PARAMETER: OpenApiObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  description:
    'Makes a retry safe: the same key from the same caller with the same request within 24 hours answers the first answer again (with `Idempotent-Replayed: true`) without creating anything; the same key with a different request is 422; while the first request with the key still runs, 409. An answer that says try later (429, 5xx) is not kept, so the retry runs anew, and a request its rate limits refuse leaves no key. A kept answer never holds a secret the request did not carry.',
};

function parameters(pattern: string, endpoint: DescribedEndpoint): OpenApiObject[] {
  const pathSchema = endpoint.schemas.params ? requestJsonSchema(endpoint.schemas.params) : {};
  const declared = new Map(propertiesOf(pathSchema).map((property) => [property.name, property.schema]));
  // Every path segment is a parameter of the URL, whether or not the endpoint validates it.
  const inPath = [...pattern.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name: name!,
    in: 'path',
    required: true,
    schema: declared.get(name!) ?? { type: 'string' },
  }));
  const { query } = endpoint.schemas;
  const entries = query && 'entries' in query ? (query.entries as Record<string, unknown>) : {};
  const inQuery = query
    ? propertiesOf(requestJsonSchema(query)).map(({ name, schema, required }) => ({ name, in: 'query', required, schema: queryValueSchema(entries[name]) ?? schema }))
    : [];
  const inHeader = [...(endpoint.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : []), ...(endpoint.edgeCache ? [IF_NONE_MATCH_PARAMETER] : [])];
  return [...inPath, ...inQuery, ...inHeader];
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/** One file, as the whole body of its media type or as the form's one file field. */
function fileRequestBody({ mediaType, formField, description }: FileBodySpec): OpenApiObject {
  const file = { type: 'string', description };
  return {
    required: true,
    description: `The file as the body (\`Content-Type: ${mediaType}\`), or as the multipart field \`${formField}\`.`,
    content: {
      [mediaType]: { schema: file },
      'multipart/form-data': { schema: { type: 'object', required: [formField], properties: { [formField]: { ...file, format: 'binary', contentMediaType: mediaType } } } },
    },
  };
}

function requestBody(endpoint: DescribedEndpoint): OpenApiObject | undefined {
  const { body, form } = endpoint.schemas;
  if (endpoint.schemas.file) return fileRequestBody(endpoint.schemas.file);
  if (!body && !form) return undefined;
  const fields: JsonSchema = body ? requestJsonSchema(body) : { type: 'object', properties: {} };
  const required = ((fields.required ?? []) as string[]).length > 0;
  if (!form) return { required, content: json(fields) };
  const file = {
    type: 'string',
    format: 'binary',
    contentMediaType: 'application/octet-stream',
    description: `An image file of at most ${megabytes(form.maxFileBytes)}`,
  };
  const files = Object.fromEntries(
    form.fileFields.map((field) => [field, form.maxFiles > 1 ? { type: 'array', items: file, maxItems: form.maxFiles } : file]),
  );
  const multipart = { ...fields, properties: { ...(fields.properties as JsonSchema), ...files } };
  return {
    required,
    description: 'Multipart form data; JSON fields (such as `attributes`) are sent as JSON text. A client sending no files may send the same fields as a JSON object.',
    content: { 'multipart/form-data': { schema: multipart }, 'application/json': { schema: fields } },
  };
}

function operationId(method: HttpMethod, pattern: string): string {
  const words = pattern
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => (segment.startsWith(':') ? ['by', segment.slice(1)] : segment.split(/[^A-Za-z0-9]+/)));
  return [method.toLowerCase(), ...words.map((word) => word.charAt(0).toUpperCase() + word.slice(1))].join('');
}

/** The document's own route (api/openapi.json.ts), as it declares itself. */
const SELF: Record<string, Partial<Record<HttpMethod, DescribedEndpoint>>> = { '/api/openapi.json': { GET: { ...OPENAPI_DOCUMENT_OPERATION, schemas: {} } } };

function operation(method: HttpMethod, pattern: string, endpoint: DescribedEndpoint): OpenApiObject {
  const access = {
    public: 'No token needed.',
    token: 'Needs a bearer token (any role).',
    admin: 'Administrators only: needs a bearer token of a `SUPER_ADMIN`.',
    cron: 'The scheduler only: needs `Authorization: Bearer <CRON_SECRET>`.',
  }[endpoint.access];
  const success = successResponse(endpoint.answer, `${method} ${pattern}`);
  const responses: OpenApiObject = Object.fromEntries([endpoint.successStatus ?? 200].flat().map((status) => [status, success]));
  if (endpoint.edgeCache) {
    responses[200] = { ...(responses[200] as OpenApiObject), headers: EDGE_CACHE_HEADERS };
    responses[304] = { description: '`If-None-Match` names the current answer: no body', headers: EDGE_CACHE_HEADERS };
  }
  Object.assign(responses, errorResponses(errorCodesOf(endpoint)));
  const body = requestBody(endpoint);
  const description = [endpoint.description, endpoint.edgeCache ? EDGE_CACHE_NOTE : undefined, access].filter(Boolean).join('\n\n');
  return {
    operationId: operationId(method, pattern),
    tags: [tagOf(pattern)],
    summary: endpoint.summary,
    description,
    'x-access': endpoint.access,
    security: { public: [], token: [{ bearerAuth: [] }], admin: [{ bearerAuth: [] }], cron: [{ cronSecret: [] }] }[endpoint.access],
    parameters: parameters(pattern, endpoint),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

const openApiPath = (pattern: string) => pattern.replace(/:(\w+)/g, '{$1}');

async function buildOpenApiDocument(routeModules: RouteModules): Promise<OpenApiDocument> {
  const paths: OpenApiDocument['paths'] = {};
  const patterns = [...Object.keys(routeModules), ...Object.keys(ROUTE_ALIASES), ...Object.keys(SELF)].sort();
  for (const pattern of patterns) {
    const target = ROUTE_ALIASES[pattern] ?? pattern;
    const endpoints = SELF[target] ?? (await routeModules[target]!()).default.endpoints;
    const operations: OpenApiDocument['paths'][string] = {};
    for (const method of HTTP_METHODS) {
      const endpoint = endpoints[method];
      if (!endpoint) continue;
      const documented = operation(method, ROUTE_ALIASES[pattern] ?? pattern, endpoint);
      // An alias answers as its target does; only the operation id must stay unique.
      operations[method.toLowerCase() as Lowercase<HttpMethod>] = !ROUTE_ALIASES[pattern]
        ? documented
        : DEPRECATED_ALIASES.has(pattern)
          ? {
              ...documented,
              operationId: operationId(method, pattern),
              deprecated: true,
              description: `Deprecated: the original service's path; use ${method} ${ROUTE_ALIASES[pattern]}.\n\n${documented.description as string}`,
            }
          : { ...documented, operationId: `${documented.operationId as string}Alias` };
    }
    paths[openApiPath(pattern)] = operations;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Marketplace Listing API',
      version: packageJson.version,
      description: [
        'A JSON HTTP API for a product-listing marketplace: agents list products with category attributes and photos, administrators run categories, settings and invitations, and a public storefront searches the listings.',
        'Every response is an envelope: `{ success: true, data, pagination? }` or `{ success: false, error, code, details? }`, where `code` is a stable identifier of the case (the `ErrorCode` schema lists them all; each operation lists those it may answer). A method a path does not answer gets 405 with an `Allow` header; an unknown path gets 404.',
        'Image fields (`images`, `hero`, `gallery`, `profileImage`) are absolute URLs in every answer, public or signed in, so a client on any origin can load them.',
        'Listing answers also carry `photos` (and storefront items `heroPhoto`): the same images with their size, a ThumbHash placeholder and a `srcset` of smaller copies (the `Photo` schema).',
        'Sign in with `POST /api/auth/login` and send the token as `Authorization: Bearer <token>`.',
      ].join('\n\n'),
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: TAGS.map(({ name, description }) => ({ name, description })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token from `POST /api/auth/login` or `POST /api/auth/register`.' },
        cronSecret: { type: 'http', scheme: 'bearer', description: 'The deployment\'s `CRON_SECRET`, as Vercel Cron sends it.' },
      },
      schemas: COMPONENT_SCHEMAS,
    },
  };
}

const built = new WeakMap<RouteModules, Promise<OpenApiDocument>>();

/**
 * The document of the functions `routeModules` lists (api/_route-modules.ts), built on first use
 * and kept for the life of the instance.
 */
export function openApiDocument(routeModules: RouteModules): Promise<OpenApiDocument> {
  let document = built.get(routeModules);
  if (!document) {
    document = buildOpenApiDocument(routeModules).catch((error: unknown) => {
      built.delete(routeModules);
      throw error;
    });
    built.set(routeModules, document);
  }
  return document;
}
