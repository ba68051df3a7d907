import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
};

/** Resolves `/uploads/<name>` inside the upload folder, or undefined for anything that would leave it. */
export function resolveUpload(uploadDir: string, pathname: string): string | undefined {
  let name: string;
  try {
    name = decodeURIComponent(pathname.slice('/uploads/'.length));
  } catch {
    return undefined;
  }
  if (!name || name.includes('\0')) return undefined;
  const root = path.resolve(uploadDir);
  const file = path.resolve(root, name);
  return file.startsWith(root + path.sep) ? file : undefined;
}

/** Streams a stored image; answers false when there is no such file. */
export async function serveUpload(uploadDir: string, pathname: string, res: ServerResponse, headOnly: boolean): Promise<boolean> {
  const file = resolveUpload(uploadDir, pathname);
  if (!file) return false;
  const stat = await fs.promises.stat(file).catch(() => undefined);
  if (!stat?.isFile()) return false;
  res.statusCode = 200;
  res.setHeader('Content-Type', CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream');
  res.setHeader('Content-Length', stat.size);
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (headOnly) {
    res.end();
    return true;
  }
  await new Promise<void>((resolve, reject) => {
    fs.createReadStream(file).on('error', reject).on('end', resolve).pipe(res);
  });
  return true;
}
