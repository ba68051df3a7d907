import { afterAll, beforeAll } from 'vitest';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';
import sharp from 'sharp';

/**
 * A loopback image host speaking the upload API the cloudinary SDK calls: signed multipart
 * `POST /v1_1/<cloud>/image/upload` and `/destroy`, and delivery of the stored images at
 * `<prefix>/<cloud>/image/upload/v1/<public id>.webp`, also through a `c_limit,w_<n>` delivery
 * transformation (`<prefix>/<cloud>/image/upload/c_limit,f_auto,q_auto,w_320/v1/<public id>.webp`). It checks every signature with the API secret,
 * signs its upload responses as the real host does, and applies a signed upload's `folder`, incoming
 * `transformation` (`c_limit,h_<n>,q_<n>,w_<n>`) and `format`, as a browser's direct upload relies on.
 */
export interface LoopbackImageHost {
  baseUrl: string;
  /** The `CLOUDINARY_URL` that points the SDK here. */
  cloudinaryUrl: string;
  cloudName: string;
  /** Public ids currently stored, with their bytes. */
  images: Map<string, Buffer>;
  /** Every accepted upload, in order, with the size of the file as it arrived. */
  uploads: Array<{ publicId: string; params: Record<string, string>; receivedBytes: number }>;
  /** Public ids the SDK asked to destroy, in order. */
  destroyed: string[];
  /** Requests refused for a missing or wrong signature. */
  badSignatures: number;
  /** Puts an image on the host as another client of the account would, and returns its signed upload response. */
  store(publicId: string, image: Buffer): UploadResponse;
  /** The next `successes` uploads are accepted, every later one fails with a 500. */
  failUploadsAfter(successes: number): void;
  /** Accepts every upload again. */
  recover(): void;
  deliveryUrl(publicId: string): string;
  close(): Promise<void>;
}

export interface UploadResponse {
  public_id: string;
  version: number;
  signature: string;
  format: string;
  resource_type: string;
  type: string;
  bytes: number;
  created_at: string;
  url: string;
  secure_url: string;
}

/** Every stored image is at its first version. */
const VERSION = 1;

/** Parameters that are sent but not signed, as the image host's API defines them. */
const UNSIGNED_PARAMS = new Set(['file', 'cloud_name', 'resource_type', 'api_key', 'signature']);

function expectedSignature(params: Record<string, string>, secret: string): string {
  const toSign = Object.entries(params)
    .filter(([key, value]) => !UNSIGNED_PARAMS.has(key) && value !== '')
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`.replace(/&/g, '%26'))
    .join('&');
  return crypto.createHash('sha1').update(toSign + secret).digest('hex');
}

/** The signature of an upload response: its public id and version, signed without encoding. */
function responseSignature(publicId: string, version: number, secret: string): string {
  return crypto.createHash('sha1').update(`public_id=${publicId}&version=${version}${secret}`).digest('hex');
}

/** Applies the incoming transformation and format of an upload; undefined when the file is no image. */
async function incomingImage(file: Buffer, params: Record<string, string>): Promise<Buffer | undefined> {
  if (!params.transformation && !params.format) return file;
  const steps = Object.fromEntries((params.transformation ?? '').split(',').filter(Boolean).map((step) => [step.slice(0, 1), step.slice(2)]));
  if (params.format !== 'webp' || (steps.c !== undefined && steps.c !== 'limit')) throw new Error(`Unsupported incoming transformation ${params.transformation} to ${params.format}`);
  try {
    return await sharp(file)
      .rotate()
      .resize({ width: steps.w ? Number(steps.w) : undefined, height: steps.h ? Number(steps.h) : undefined, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: steps.q ? Number(steps.q) : 80 })
      .toBuffer();
  } catch {
    return undefined;
  }
}

/**
 * A delivery transformation of a stored image (`c_limit,f_auto,q_auto,w_320`): at most that wide,
 * never enlarged; the format a browser gets is WebP here. Undefined for a transformation it does not know.
 */
async function deliveryTransformation(image: Buffer, transformation: string): Promise<Buffer | undefined> {
  const steps = Object.fromEntries(transformation.split(',').map((step) => [step.slice(0, 1), step.slice(2)]));
  const known = steps.c === 'limit' && /^\d+$/.test(steps.w ?? '') && [undefined, 'auto'].includes(steps.f) && [undefined, 'auto'].includes(steps.q);
  if (!known || Object.keys(steps).some((key) => !'cfqw'.includes(key))) return undefined;
  return sharp(image).resize({ width: Number(steps.w), withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
}

function readMultipart(req: http.IncomingMessage): Promise<{ params: Record<string, string>; file: Buffer | undefined }> {
  return new Promise((resolve, reject) => {
    const params: Record<string, string> = {};
    let file: Buffer | undefined;
    const parser = busboy({ headers: req.headers });
    parser.on('field', (name, value) => {
      params[name] = value;
    });
    parser.on('file', (_name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        file = Buffer.concat(chunks);
      });
    });
    parser.on('error', reject);
    parser.on('close', () => resolve({ params, file }));
    req.pipe(parser);
  });
}

function reply(res: http.ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(body));
}

function isWebp(bytes: Buffer): boolean {
  return bytes.subarray(0, 4).toString('ascii') === 'RIFF' && bytes.subarray(8, 12).toString('ascii') === 'WEBP';
}

export async function startLoopbackImageHost(options: { cloudName?: string; apiKey?: string; apiSecret?: string } = {}): Promise<LoopbackImageHost> {
  // The SDK reads the cloud name from a URL host, which is lower-cased.
  const cloudName = options.cloudName ?? 'loopback-cloud';
  const apiKey = options.apiKey ?? '123456789012345';
  const apiSecret = options.apiSecret ?? 'loopback-api-secret';
  const images = new Map<string, Buffer>();
  const uploads: LoopbackImageHost['uploads'] = [];
  const destroyed: string[] = [];
  let remainingSuccesses = Number.POSITIVE_INFINITY;
  let baseUrl = '';

  const host: LoopbackImageHost = {
    baseUrl: '',
    cloudinaryUrl: '',
    cloudName,
    images,
    uploads,
    destroyed,
    badSignatures: 0,
    store(publicId, image) {
      images.set(publicId, image);
      return uploadResponse(publicId, image);
    },
    failUploadsAfter(successes) {
      remainingSuccesses = successes;
    },
    recover() {
      remainingSuccesses = Number.POSITIVE_INFINITY;
    },
    deliveryUrl: (publicId) => `${baseUrl}/${cloudName}/image/upload/v${VERSION}/${publicId}.webp`,
    close: async () => undefined,
  };

  const uploadResponse = (publicId: string, image: Buffer): UploadResponse => ({
    public_id: publicId,
    version: VERSION,
    signature: responseSignature(publicId, VERSION, apiSecret),
    format: 'webp',
    resource_type: 'image',
    type: 'upload',
    bytes: image.length,
    created_at: new Date().toISOString(),
    url: host.deliveryUrl(publicId),
    secure_url: host.deliveryUrl(publicId),
  });

  const signed = (params: Record<string, string>): boolean => {
    const timestamp = Number(params.timestamp);
    const fresh = Number.isFinite(timestamp) && Math.abs(Date.now() / 1000 - timestamp) < 3600;
    const valid = fresh && params.api_key === apiKey && params.signature === expectedSignature(params, apiSecret);
    if (!valid) host.badSignatures += 1;
    return valid;
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const api = /^\/v1_1\/([^/]+)\/image\/(upload|destroy)$/.exec(url.pathname);
    if (req.method === 'POST' && api) {
      const { params, file } = await readMultipart(req);
      if (api[1] !== cloudName) return reply(res, 404, { error: { message: `Unknown cloud ${api[1]}` } });
      if (!signed(params)) return reply(res, 401, { error: { message: 'Invalid Signature' } });
      if (api[2] === 'destroy') {
        const publicId = params.public_id ?? '';
        destroyed.push(publicId);
        return reply(res, 200, { result: images.delete(publicId) ? 'ok' : 'not found' });
      }
      if (remainingSuccesses <= 0) return reply(res, 500, { error: { message: 'Simulated image host outage' } });
      const image = file && (await incomingImage(file, params));
      if (!image || !isWebp(image)) return reply(res, 400, { error: { message: 'Invalid image file' } });
      const randomId = crypto.randomBytes(10).toString('hex');
      const publicId = params.public_id || (params.folder ? `${params.folder}/${randomId}` : randomId);
      if (images.has(publicId) && params.overwrite === 'false') return reply(res, 400, { error: { message: 'Resource already exists' } });
      remainingSuccesses -= 1;
      images.set(publicId, image);
      uploads.push({ publicId, params, receivedBytes: file.length });
      return reply(res, 200, uploadResponse(publicId, image));
    }
    const delivery = new RegExp(`^/${cloudName}/image/upload/(?:([a-z]_[^/]+)/)?v${VERSION}/(.+)\\.webp$`).exec(url.pathname);
    const stored = delivery && req.method === 'GET' ? images.get(decodeURIComponent(delivery[2]!)) : undefined;
    const delivered = stored && (delivery![1] ? await deliveryTransformation(stored, delivery![1]) : stored);
    if (delivered) {
      res.statusCode = 200;
      res.setHeader('Content-Type', 'image/webp');
      res.end(delivered);
      return;
    }
    req.resume();
    reply(res, 404, { error: { message: 'Not found' } });
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => reply(res, 500, { error: { message: String(error) } }));
  });
  // Clients keep their connections open. With Node's default 5 s idle wait, this server would close
  // one just as a test's next upload is written on it: a reset the real image host, which keeps idle
  // connections far longer, does not cause.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  host.baseUrl = baseUrl;
  host.cloudinaryUrl = `cloudinary://${apiKey}:${apiSecret}@${cloudName}?upload_prefix=${baseUrl}`;
  host.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return host;
}

/**
 * A test file's loopback image host, started before its tests and closed after them (register it
 * before `useTestServer`). The handle stands for the running host; `serverEnv()` makes the service
 * keep its images there, in `folder`.
 */
export function useLoopbackImageHost(folder: string): LoopbackImageHost & { serverEnv: () => Record<string, string> } {
  let started: LoopbackImageHost | undefined;
  beforeAll(async () => {
    started = await startLoopbackImageHost();
  });
  afterAll(() => started?.close());
  const current = (): LoopbackImageHost => {
    if (!started) throw new Error('The loopback image host is started in beforeAll: use it from hooks and tests');
    return started;
  };
  const serverEnv = () => ({ STORAGE_PROVIDER: 'cloudinary', CLOUDINARY_URL: current().cloudinaryUrl, IMAGE_HOST_FOLDER: folder });
  return new Proxy({ serverEnv } as LoopbackImageHost & { serverEnv: typeof serverEnv }, {
    get: (target, property) => (property === 'serverEnv' ? target.serverEnv : Reflect.get(current(), property)),
  });
}
