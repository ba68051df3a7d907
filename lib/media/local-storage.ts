import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { config } from '../config.js';
import { directUploadsUnavailable, type ImageStorage } from './image-storage.js';

const PREFIX = '/uploads/';
/**
 * A file directly in UPLOAD_DIR: the names this storage generates (`<uuid>.webp`) and those the
 * original service gave the files of adopted listings (such as `1717238400000-a1b2c3d4-name.webp`).
 * No separator and no leading dot, so nothing outside UPLOAD_DIR is reachable.
 */
const STORED_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}\.webp$/;

/** Maps a reference to its file, only for stored names. */
function fileOf(ref: string): string | undefined {
  if (!ref.startsWith(PREFIX)) return undefined;
  const name = ref.slice(PREFIX.length);
  return STORED_NAME.test(name) ? path.join(config().uploadDir, name) : undefined;
}

/** Images on local disk under `UPLOAD_DIR`, served by the local server at `/uploads/<name>`. */
export function localStorage(): ImageStorage {
  return {
    async save(image) {
      const name = `${crypto.randomUUID()}.webp`;
      const file = path.join(config().uploadDir, name);
      await fs.mkdir(config().uploadDir, { recursive: true });
      try {
        await fs.writeFile(file, image, { flag: 'wx' });
      } catch (error) {
        // A write cut short (disk full) leaves a partial file that nothing references.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await fs.rm(file, { force: true });
        throw error;
      }
      return `${PREFIX}${name}`;
    },
    async remove(ref) {
      const file = fileOf(ref);
      if (file) await fs.rm(file, { force: true });
    },
    async read(ref) {
      const file = fileOf(ref);
      if (!file) throw new Error(`Not a stored image: ${ref}`);
      return fs.readFile(file);
    },
    owns(ref) {
      return fileOf(ref) !== undefined;
    },
    directUploadTicket() {
      throw directUploadsUnavailable();
    },
    checkDirectUpload() {
      throw directUploadsUnavailable();
    },
    async discardDirectUpload() {
      // Local disk issues no tickets, so it has no direct uploads to discard.
    },
  };
}
