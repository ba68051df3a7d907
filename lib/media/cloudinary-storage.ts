import crypto from 'node:crypto';
import { v2 as cloudinary, type UploadApiResponse } from 'cloudinary';
import { config } from '../config.js';
import { ApiError } from '../http/api-error.js';
import type { DirectUploadCheck, DirectUploadResponse, DirectUploadTicket } from './direct-upload.js';
import { MAX_STORED_HEIGHT, MAX_STORED_WIDTH } from './image-shape.js';
import type { ImageStorage } from './image-storage.js';
import { renditionWidthsFor } from './photo-renditions.js';

declare module 'cloudinary' {
  // Shipped by the SDK (utils/index.js) but missing from its type declarations.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace v2.utils {
    function verify_api_response_signature(public_id: string, version: string | number, signature: string): boolean;
  }
}

const TIMEOUT_MS = 60_000;
const SHARED_DELIVERY_HOST = 'res.cloudinary.com';
/** The image host refuses an upload signed longer ago than this. */
const SIGNATURE_LIFETIME_SECONDS = 60 * 60;
/** A stored photo as the service makes one, applied by the image host as it receives a direct upload. */
const DIRECT_UPLOAD_FORMAT = 'webp';
const DIRECT_UPLOAD_TRANSFORMATION = { crop: 'limit', width: MAX_STORED_WIDTH, height: MAX_STORED_HEIGHT, quality: 80 } as const;

let configured = false;

/** CLOUDINARY_URL is read by the SDK itself; the separate variables are the alternative. */
function client(): typeof cloudinary {
  if (!configured) {
    if (!process.env.CLOUDINARY_URL) {
      cloudinary.config({
        cloud_name: process.env.CLOUDINARY_CLOUD_NAME,
        api_key: process.env.CLOUDINARY_API_KEY,
        api_secret: process.env.CLOUDINARY_API_SECRET,
      });
    }
    cloudinary.config({ secure: true });
    configured = true;
  }
  return cloudinary;
}

/** Hosts our images are delivered from: the shared CDN, a configured distribution, or the API prefix host (a proxy). */
function deliveryHosts(): Set<string> {
  const settings = client().config();
  const hosts = new Set([SHARED_DELIVERY_HOST]);
  if (typeof settings.secure_distribution === 'string') hosts.add(settings.secure_distribution);
  if (typeof settings.upload_prefix === 'string') hosts.add(new URL(settings.upload_prefix).host);
  return hosts;
}

/**
 * `https://res.cloudinary.com/<cloud>/image/upload/v123/<folder>/<id>.webp` -> `<folder>/<id>`, only
 * for our cloud, a delivery host of it and a public id inside our folder.
 */
export function publicIdOf(ref: string): string | undefined {
  let url: URL;
  try {
    url = new URL(ref);
  } catch {
    return undefined;
  }
  if (!deliveryHosts().has(url.host)) return undefined;
  const cloudName = client().config().cloud_name;
  const match = /^\/([^/]+)\/image\/upload\/(?:v\d+\/)?(.+)\.[a-z0-9]+$/i.exec(url.pathname);
  if (!match || match[1] !== cloudName) return undefined;
  let publicId: string;
  try {
    publicId = decodeURIComponent(match[2]!);
  } catch {
    return undefined;
  }
  const folder = config().imageHostFolder;
  if (!publicId.startsWith(`${folder}/`) || publicId.includes('..')) return undefined;
  return publicId;
}

interface Credentials {
  cloudName: string;
  apiKey: string;
  apiSecret: string;
}

function credentials(): Credentials {
  const { cloud_name: cloudName, api_key: apiKey, api_secret: apiSecret } = client().config();
  if (!cloudName || !apiKey || !apiSecret) throw new ApiError(503, 'The image host is not configured');
  return { cloudName, apiKey, apiSecret };
}

/**
 * Signs the upload parameters with the SDK's own helper; the image host checks the signature and
 * the timestamp. The signature covers one public id in our folder, so a ticket makes one image
 * (sending again replaces it) and the service knows every image its tickets can make.
 */
function directUploadTicket(): DirectUploadTicket {
  const { cloudName, apiKey, apiSecret } = credentials();
  const sdk = client();
  const timestamp = Math.floor(Date.now() / 1000);
  const folder = config().imageHostFolder;
  const signed = {
    public_id: `${folder}/${crypto.randomUUID()}`,
    timestamp,
    transformation: sdk.utils.generate_transformation_string({ ...DIRECT_UPLOAD_TRANSFORMATION }),
    format: DIRECT_UPLOAD_FORMAT,
  };
  const signature = sdk.utils.api_sign_request(signed, apiSecret);
  return {
    uploadUrl: sdk.utils.api_url('upload', { resource_type: 'image', cloud_name: cloudName }),
    cloudName,
    apiKey,
    publicId: signed.public_id,
    folder,
    timestamp,
    transformation: signed.transformation,
    format: signed.format,
    expiresAt: new Date((timestamp + SIGNATURE_LIFETIME_SECONDS) * 1000).toISOString(),
    signature,
    fields: { ...signed, api_key: apiKey, signature },
  };
}

/**
 * The upload response's signature (over its public id and version, with our API secret) proves the
 * image host made it for our account; the URL must then name that very image, inside our folder.
 */
function checkDirectUpload(upload: DirectUploadResponse): DirectUploadCheck {
  credentials();
  if (!client().utils.verify_api_response_signature(upload.public_id, upload.version, upload.signature)) {
    return { problem: 'is not an upload response signed by the image host' };
  }
  const folder = config().imageHostFolder;
  if (!upload.public_id.startsWith(`${folder}/`)) return { problem: `is not an image uploaded to ${folder}` };
  const namesTheUpload = publicIdOf(upload.secure_url) === upload.public_id && new URL(upload.secure_url).pathname.includes(`/image/upload/v${upload.version}/`);
  if (!namesTheUpload) return { problem: 'has a secure_url that is not the uploaded image\'s URL' };
  return { ref: canonicalRef(upload.public_id, upload.version) };
}

/**
 * The one URL of an uploaded image, built from what the response signature covers (public id and
 * version) rather than taken from the client: variants of one upload's URL (a query, a fragment,
 * credentials, `/./`) all name the same reference, so "one image, one listing" holds for them.
 * Signed uploads are stored as WebP (DIRECT_UPLOAD_FORMAT).
 */
function canonicalRef(publicId: string, version: string | number): string {
  const settings = client().config();
  const origin =
    typeof settings.secure_distribution === 'string'
      ? `https://${settings.secure_distribution}`
      : typeof settings.upload_prefix === 'string'
        ? new URL(settings.upload_prefix).origin
        : `https://${SHARED_DELIVERY_HOST}`;
  const path = publicId.split('/').map(encodeURIComponent).join('/');
  return `${origin}/${settings.cloud_name}/image/upload/v${version}/${path}.${DIRECT_UPLOAD_FORMAT}`;
}

/**
 * A rendition as the image host's delivery transformation of the stored asset (no copy is stored):
 * at most `width` wide, format and quality chosen per browser. Built by the SDK, on the delivery
 * host and at the version the stored image's URL names.
 */
function renditionUrl(ref: string, publicId: string, width: number): string {
  const url = new URL(ref);
  const version = /\/image\/upload\/v(\d+)\//.exec(url.pathname)?.[1];
  const format = /\.([a-z0-9]+)$/i.exec(url.pathname)?.[1];
  const deliveryHost = url.protocol === 'https:' ? { secure: true, secure_distribution: url.host } : { secure: false, cname: url.host };
  return client().url(publicId, {
    ...deliveryHost,
    version,
    format,
    transformation: [{ crop: 'limit', width, fetch_format: 'auto', quality: 'auto' }],
    urlAnalytics: false,
  });
}

function renditionsOf(ref: string, widths: readonly number[]) {
  const publicId = publicIdOf(ref);
  if (!publicId) throw new Error(`Not a stored image: ${ref}`);
  return widths.map((width) => ({ width, ref: renditionUrl(ref, publicId, width) }));
}

function upload(image: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const stream = client().uploader.upload_stream(
      {
        // The folder is part of the public id, which places the image in it in either folder mode of the host.
        public_id: `${config().imageHostFolder}/${crypto.randomUUID()}`,
        resource_type: 'image',
        overwrite: false,
        timeout: TIMEOUT_MS,
      },
      (error, result?: UploadApiResponse) => {
        if (error || !result?.secure_url) reject(new Error(`Image host upload failed: ${error?.message ?? 'no URL in the response'}`));
        else resolve(result.secure_url);
      },
    );
    stream.end(image);
  });
}

/** Images on the image host, in `IMAGE_HOST_FOLDER`, each under a fresh random public id. */
export function cloudinaryStorage(): ImageStorage {
  return {
    keepsRenditionFiles: false,
    async save(image) {
      const ref = await upload(image.data);
      const { width, height, placeholder } = image;
      return { ref, width, height, placeholder, renditions: renditionsOf(ref, renditionWidthsFor(width)) };
    },
    async addRenditions(ref, image) {
      return renditionsOf(ref, renditionWidthsFor(image.width));
    },
    async remove(ref) {
      const publicId = publicIdOf(ref);
      if (!publicId) return;
      const result = (await client().uploader.destroy(publicId, { resource_type: 'image', invalidate: true })) as { result?: string };
      if (result.result !== 'ok' && result.result !== 'not found') throw new Error(`Image host could not delete ${publicId}: ${String(result.result)}`);
    },
    async read(ref) {
      if (!publicIdOf(ref)) throw new Error(`Not a stored image: ${ref}`);
      const response = await fetch(ref, { signal: AbortSignal.timeout(10_000) });
      if (!response.ok) throw new Error(`Image host answered ${response.status} for ${ref}`);
      return Buffer.from(await response.arrayBuffer());
    },
    owns(ref) {
      return publicIdOf(ref) !== undefined;
    },
    directUploadTicket,
    checkDirectUpload,
    async discardDirectUpload(publicId) {
      if (!publicId.startsWith(`${config().imageHostFolder}/`)) return;
      const result = (await client().uploader.destroy(publicId, { resource_type: 'image', invalidate: true })) as { result?: string };
      if (result.result !== 'ok' && result.result !== 'not found') throw new Error(`Image host could not delete ${publicId}: ${String(result.result)}`);
    },
  };
}
