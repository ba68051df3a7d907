import crypto from 'node:crypto';
import fc from 'fast-check';
import type { HttpMethod } from '../../lib/http/endpoint.js';
import type { Schemas } from '../../lib/http/endpoint-input.js';
import type { Access } from '../../lib/http/access.js';
import { discoverRoutes } from '../../lib/local-server/route-table.js';
import type { RouteHandler } from '../../lib/http/route.js';
import { pathToFileURL } from 'node:url';

/** One method of one function under `api/`, as its route file declares it. */
export interface DiscoveredEndpoint {
  method: HttpMethod;
  pattern: string;
  access: Access;
  schemas: Schemas;
  /** The keys of the body's object schema, when it has one: the fields worth sending wrong. */
  bodyFields: string[];
  queryFields: string[];
  params: string[];
}

function objectKeys(schema: unknown): string[] {
  const entries = (schema as { entries?: Record<string, unknown> } | undefined)?.entries;
  return entries ? Object.keys(entries) : [];
}

/** Every endpoint under `apiDir`, discovered from the files as the local server routes them. */
export async function discoverEndpoints(apiDir: string): Promise<DiscoveredEndpoint[]> {
  const routes = discoverRoutes(apiDir);
  const perRoute = await Promise.all(
    routes.map(async (route) => {
      const handler = ((await import(pathToFileURL(route.modulePath).href)) as { default: RouteHandler }).default;
      return Object.entries(handler.endpoints).map(([method, endpoint]) => ({
        method: method as HttpMethod,
        pattern: route.pattern,
        access: endpoint!.access,
        schemas: endpoint!.schemas,
        bodyFields: objectKeys(endpoint!.schemas.body),
        queryFields: objectKeys(endpoint!.schemas.query),
        params: route.segments.flatMap((segment) => ('param' in segment ? [segment.param] : [])),
      }));
    }),
  );
  return perRoute.flat();
}

/** Well-formed path values, so that the body or the query (not the path) is what gets judged. */
const PLAUSIBLE_PARAMS: Record<string, () => string> = {
  messageId: () => '1',
  platform: () => 'MESSENGER',
};

export function plausiblePath(endpoint: DiscoveredEndpoint): string {
  return endpoint.pattern.replace(/:(\w+)/g, (_, name: string) => PLAUSIBLE_PARAMS[name]?.() ?? crypto.randomUUID());
}

export function pathWith(endpoint: DiscoveredEndpoint, values: Record<string, string>): string {
  return endpoint.pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? PLAUSIBLE_PARAMS[name]?.() ?? crypto.randomUUID()));
}

/** Just over the 1 MB JSON body limit once serialized. */
export const OVERSIZED_STRING = 'x'.repeat(1024 * 1024 + 16);
/** Under the body limit, far over any field's length limit. */
export const HUGE_STRING = 'y'.repeat(300_000);

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'abc\u0000def',
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  '99999999999999999999999',
  '1.5',
  'true',
  'null',
  '[]',
  '{}',
  '{"brand":',
  "' or 1=1 --",
  '%',
  '_',
  '\\',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  '\ud800',
  '💥'.repeat(300),
  'ＡＢＣ',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'SUPER_ADMIN',
  'SOLD',
];

const nastyString = fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));

/** A JSON value of any type, nasty strings included, a few levels deep. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    nastyString,
    fc.integer(),
    fc.double(),
    fc.constantFrom(-1, 0, 1e21, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0.001),
    fc.boolean(),
    fc.constant(null),
    fc.constant(HUGE_STRING),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(nastyString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** `depth` nested arrays (or objects), written out directly: serializing them would exhaust the stack. */
export function deeplyNested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

export interface RawRequest {
  label: string;
  contentType: string | undefined;
  body: string | Uint8Array;
}

/**
 * A hostile JSON body for an endpoint: any JSON value at the top, or an object over the endpoint's
 * own fields with values of the wrong type, missing fields, extra fields, huge strings, deep nesting.
 */
export function hostileJsonBody(fields: string[]): fc.Arbitrary<RawRequest> {
  const known = fields.length > 0 ? fc.constantFrom(...fields) : nastyString;
  const objectOverFields = fc
    .tuple(fc.dictionary(known, hostileValue, { maxKeys: Math.max(fields.length, 3) }), fc.dictionary(nastyString, hostileValue, { maxKeys: 2 }))
    .map(([own, extra]) => ({ ...extra, ...own }));
  const json = fc.oneof(
    { weight: 5, arbitrary: objectOverFields.map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: known.map((field) => JSON.stringify({ [field]: OVERSIZED_STRING })) },
    { weight: 1, arbitrary: fc.tuple(known, fc.integer({ min: 500, max: 5000 }), fc.constantFrom<'array' | 'object'>('array', 'object')).map(([field, depth, kind]) => `{${JSON.stringify(field)}:${deeplyNested(depth, kind)}}`) },
  );
  return json.map((body) => ({ label: 'json', contentType: 'application/json', body }));
}

/** CSV cells that break quoting, rows and numbers, beside the nasty strings. */
const csvCell = fc.oneof(nastyString, fc.constantFrom('"', '""', '"a"b', 'a"b', 'a\r\nb', ',', '\ufeff', "'=1+1", '=1+1', '12,5', '-1', ' | '));

const quotedCell = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);

/**
 * A hostile CSV file for an endpoint that takes one: well-formed files whose header mixes the
 * endpoint's own columns with nonsense and whose cells are hostile, broken files (stray quotes and
 * line breaks anywhere), and random bytes.
 */
export function hostileCsvBody(columns: readonly string[]): fc.Arbitrary<RawRequest> {
  const header = fc.array(fc.oneof(fc.constantFrom(...columns), nastyString), { maxLength: 8 });
  const rows = fc.array(fc.array(csvCell, { maxLength: 9 }), { maxLength: 6 });
  const wellFormed = fc.tuple(header, rows).map(([names, cells]) => [names, ...cells].map((row) => row.map(quotedCell).join(',')).join('\r\n'));
  const broken = fc.array(fc.oneof(csvCell, fc.constantFrom(',', '\n', '\r\n', '"')), { maxLength: 60 }).map((parts) => parts.join(''));
  const body = fc.oneof({ weight: 3, arbitrary: wellFormed }, { weight: 2, arbitrary: broken }, { weight: 1, arbitrary: fc.uint8Array({ maxLength: 512 }) });
  return body.map((file) => ({ label: 'csv', contentType: 'text/csv', body: file }));
}

/**
 * Inputs always tried before the random ones: each field of the endpoint carrying a NUL character
 * (which Postgres text cannot hold), a huge string, and the wrong type.
 */
export function jsonBodyExamples(fields: string[]): RawRequest[] {
  return fields.flatMap((field) =>
    ['a\u0000b', HUGE_STRING, 12345, { nested: [true] }].map((value) => ({ label: 'json', contentType: 'application/json', body: JSON.stringify({ [field]: value }) })),
  );
}

export function queryExamples(fields: string[]): string[] {
  return [...new Set([...fields, 'page', 'limit'])].flatMap((field) => ['\u0000', '-1', 'abc', '1e999'].map((value) => new URLSearchParams({ [field]: value }).toString()));
}

/** Bodies no JSON endpoint can read: broken JSON, other content types, bytes. */
export const MALFORMED_BODIES: RawRequest[] = [
  { label: 'truncated JSON', contentType: 'application/json', body: '{"email": "a@example.com", ' },
  { label: 'single quotes', contentType: 'application/json', body: "{'name': 'x'}" },
  { label: 'trailing garbage', contentType: 'application/json', body: '{} {}' },
  { label: 'bare word', contentType: 'application/json', body: 'undefined' },
  { label: 'byte order mark and NUL', contentType: 'application/json', body: '\ufeff{"a":"\u0000"}' },
  { label: 'array nested 100000 deep', contentType: 'application/json', body: deeplyNested(100_000, 'array') },
  { label: 'plain text', contentType: 'text/plain', body: 'name=x' },
  { label: 'url-encoded form', contentType: 'application/x-www-form-urlencoded', body: 'name=x&maxUses=3' },
  { label: 'XML', contentType: 'application/xml', body: '<a>1</a>' },
  { label: 'no content type', contentType: undefined, body: '{"a":1}' },
  { label: 'random bytes as JSON', contentType: 'application/json', body: new Uint8Array(crypto.randomBytes(512)) },
];

const BOUNDARY = 'fuzzboundary7MA4YWxkTrZu0gW';

function part(name: string, value: string, file?: { filename: string; type: string }): string {
  const disposition = file ? `form-data; name="${name}"; filename="${file.filename}"` : `form-data; name="${name}"`;
  return `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${file ? `Content-Type: ${file.type}\r\n` : ''}\r\n${value}\r\n`;
}

/** Multipart bodies that are broken, or well-formed but carrying what no form accepts. */
export const MALFORMED_MULTIPART: RawRequest[] = [
  { label: 'no boundary', contentType: 'multipart/form-data', body: `${part('title', 'x')}--${BOUNDARY}--\r\n` },
  { label: 'boundary mismatch', contentType: 'multipart/form-data; boundary=another', body: `${part('title', 'x')}--${BOUNDARY}--\r\n` },
  { label: 'truncated', contentType: `multipart/form-data; boundary=${BOUNDARY}`, body: `${part('title', 'x')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="price"\r\n\r\n12` },
  { label: 'no closing delimiter', contentType: `multipart/form-data; boundary=${BOUNDARY}`, body: part('title', 'x') },
  { label: 'garbage', contentType: `multipart/form-data; boundary=${BOUNDARY}`, body: new Uint8Array(crypto.randomBytes(2048)) },
  {
    label: 'a text file as an image',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: `${part('title', 'x')}${part('images', 'not an image at all', { filename: 'photo.jpg', type: 'image/jpeg' })}--${BOUNDARY}--\r\n`,
  },
  {
    label: 'a file in a field that takes none',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: `${part('title', 'x')}${part('title', 'x', { filename: 'a.txt', type: 'text/plain' })}--${BOUNDARY}--\r\n`,
  },
  {
    label: 'a field over 1 MB',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: `${part('description', OVERSIZED_STRING)}--${BOUNDARY}--\r\n`,
  },
  {
    label: 'JSON fields that are not JSON',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: `${part('attributes', '{"brand":')}${part('customSocials', '[{')}${part('existingImages', 'nope')}--${BOUNDARY}--\r\n`,
  },
];

/** Query values for paging and filters: negative, non-numeric, huge, repeated, empty. */
export const hostileQueryValue = fc.oneof(
  fc.constantFrom('-1', '0', '-0', '1.5', '1e3', 'abc', '', ' ', '99999999999999999999', '0x10', '+5', '%', '_', "'", '\u0000', '101', '1000001', 'NaN'),
  fc.string({ maxLength: 30 }),
  fc.integer().map(String),
  fc.constant('q'.repeat(1500)),
);

/** Query keys: the endpoint's own, paging, and a few odd ones (kept short: a URL over 16 KB never reaches the app). */
const queryKey = fc.oneof(fc.constantFrom('', '%', '__proto__', 'page[]', '\u0000', 'limit '), fc.string({ maxLength: 12 }));

export function hostileQuery(fields: string[]): fc.Arbitrary<string> {
  const names = fc.constantFrom(...new Set([...fields, 'page', 'limit']));
  return fc
    .array(fc.tuple(fc.oneof({ weight: 4, arbitrary: names }, { weight: 1, arbitrary: queryKey }), hostileQueryValue), { minLength: 1, maxLength: 5 })
    .map((pairs) => new URLSearchParams(pairs).toString());
}

/** A path segment of dots alone, which every URL client removes before sending (the URL standard's dot segments). */
const isDotSegment = (value: string) => /^\.{1,2}$/.test(value);

/**
 * Path values no route should take: not UUIDs, not numbers, traversal, NUL, very long. A value of
 * dots alone never reaches a route (the client sends the parent path instead), so none is drawn.
 */
export const hostilePathValue = fc
  .oneof(
    fc.constantFrom('not-a-uuid', '123', '-1', '0', '1.5', '%00', '\u0000', '../../etc/passwd', '..%2F..%2Fetc', "' or '1'='1", 'a'.repeat(3000), '00000000-0000-0000-0000-00000000000g', '{}', '💥', ' '),
    fc.string({ minLength: 1, maxLength: 60 }),
    fc.uuid().map((uuid) => `${uuid}x`),
    fc.integer().map(String),
  )
  .filter((value) => !isDotSegment(value));
