import crypto from 'node:crypto';
import { v2 as cloudinary, type UploadApiResponse } from 'cloudinary';
import { config } from '../config.js';
import type { ImageStorage } from './storage.js';

const TIMEOUT_MS = 60_000;
const SHARED_DELIVERY_HOST = 'res.cloudinary.com';

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

/** Images on the image host, in `IMAGE_HOST_FOLDER`, each under a fresh random public id. */
export function cloudinaryStorage(): ImageStorage {
  return {
    save(image) {
      return new Promise((resolve, reject) => {
        const upload = client().uploader.upload_stream(
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
        upload.end(image);
      });
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
  };
}
