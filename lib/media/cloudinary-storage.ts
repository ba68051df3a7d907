import { v2 as cloudinary, type UploadApiResponse } from 'cloudinary';
import { config } from '../config.js';
import type { ImageStorage } from './storage.js';

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

/** `https://res.cloudinary.com/<cloud>/image/upload/v123/<folder>/<id>.webp` -> `<folder>/<id>`, only inside our folder. */
export function publicIdOf(ref: string): string | undefined {
  let url: URL;
  try {
    url = new URL(ref);
  } catch {
    return undefined;
  }
  const cloudName = client().config().cloud_name;
  const match = /^\/([^/]+)\/image\/upload\/(?:v\d+\/)?(.+)\.[a-z0-9]+$/i.exec(url.pathname);
  if (!match || match[1] !== cloudName) return undefined;
  const publicId = decodeURIComponent(match[2]!);
  const folder = config().imageHostFolder;
  if (!publicId.startsWith(`${folder}/`) || publicId.includes('..')) return undefined;
  return publicId;
}

/** Images on the image host, in `IMAGE_HOST_FOLDER`. */
export function cloudinaryStorage(): ImageStorage {
  return {
    save(image) {
      return new Promise((resolve, reject) => {
        const upload = client().uploader.upload_stream(
          { folder: config().imageHostFolder, resource_type: 'image', format: 'webp', timeout: 60_000 },
          (error, result?: UploadApiResponse) => {
            if (error || !result) reject(new Error(`Image host upload failed: ${error?.message ?? 'no response'}`));
            else resolve(result.secure_url);
          },
        );
        upload.end(image);
      });
    },
    async remove(ref) {
      const publicId = publicIdOf(ref);
      if (publicId) await client().uploader.destroy(publicId, { resource_type: 'image', invalidate: true });
    },
    async read(ref) {
      const response = await fetch(ref, { signal: AbortSignal.timeout(10_000) });
      if (!response.ok) throw new Error(`Image host answered ${response.status} for ${ref}`);
      return Buffer.from(await response.arrayBuffer());
    },
    owns(ref) {
      return publicIdOf(ref) !== undefined;
    },
  };
}
