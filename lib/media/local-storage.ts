import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { PhotoRendition } from '../db/schema.js';
import { config } from '../config.js';
import { directUploadsUnavailable, type ImageStorage } from './image-storage.js';
import type { EncodedRendition } from './photo-encoding.js';
import { RENDITION_WIDTHS } from './photo-renditions.js';

const PREFIX = '/uploads/';
/**
 * A file directly in UPLOAD_DIR: the names this storage generates (`<uuid>.webp`) and those the
 * original service gave the files of adopted listings (such as `1717238400000-a1b2c3d4-name.webp`).
 * No separator and no leading dot, so nothing outside UPLOAD_DIR is reachable.
 */
const STORED_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}\.webp$/;

/** The stored name of a reference, only for stored names. */
function nameOf(ref: string): string | undefined {
  if (!ref.startsWith(PREFIX)) return undefined;
  const name = ref.slice(PREFIX.length);
  return STORED_NAME.test(name) ? name : undefined;
}

function fileOf(ref: string): string | undefined {
  const name = nameOf(ref);
  return name === undefined ? undefined : path.join(config().uploadDir, name);
}

/**
 * A rendition keeps its image's name in a folder of its width (`w320/<name>`): a stored name has
 * no separator, so a rendition can never take the name of a stored image, adopted ones included.
 */
const renditionFolder = (width: number) => `w${width}`;
const renditionRef = (name: string, width: number) => `${PREFIX}${renditionFolder(width)}/${name}`;
const renditionFile = (name: string, width: number) => path.join(config().uploadDir, renditionFolder(width), name);

/** Writes files as one: when any write fails (disk full), those written are removed again. */
async function writeAll(files: Array<{ file: string; data: Buffer }>, flag: 'w' | 'wx'): Promise<void> {
  const results = await Promise.allSettled(
    files.map(async ({ file, data }) => {
      await fs.mkdir(path.dirname(file), { recursive: true });
      try {
        await fs.writeFile(file, data, { flag });
      } catch (error) {
        // A write cut short leaves a partial file that nothing references.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await fs.rm(file, { force: true });
        throw error;
      }
    }),
  );
  const failure = results.find((result) => result.status === 'rejected');
  if (!failure) return;
  await Promise.all(files.filter((_, index) => results[index]!.status === 'fulfilled').map(({ file }) => fs.rm(file, { force: true })));
  throw failure.reason;
}

function renditionFiles(name: string, renditions: readonly EncodedRendition[]) {
  return renditions.map(({ width, data }) => ({ file: renditionFile(name, width), data }));
}

function renditionRefs(name: string, renditions: readonly EncodedRendition[]): PhotoRendition[] {
  return renditions.map(({ width }) => ({ width, ref: renditionRef(name, width) }));
}

/** Images on local disk under `UPLOAD_DIR`, served by the local server at `/uploads/<name>`. */
export function localStorage(): ImageStorage {
  return {
    keepsRenditionFiles: true,
    async save(image) {
      const name = `${crypto.randomUUID()}.webp`;
      await writeAll([{ file: path.join(config().uploadDir, name), data: image.data }, ...renditionFiles(name, image.renditions)], 'wx');
      const { width, height, placeholder } = image;
      return { ref: `${PREFIX}${name}`, width, height, placeholder, renditions: renditionRefs(name, image.renditions) };
    },
    async addRenditions(ref, image) {
      const name = nameOf(ref);
      if (name === undefined) throw new Error(`Not a stored image: ${ref}`);
      await writeAll(renditionFiles(name, image.renditions), 'w');
      return renditionRefs(name, image.renditions);
    },
    async remove(ref) {
      const name = nameOf(ref);
      if (name === undefined) return;
      await Promise.all([path.join(config().uploadDir, name), ...RENDITION_WIDTHS.map((width) => renditionFile(name, width))].map((file) => fs.rm(file, { force: true })));
    },
    async read(ref) {
      const file = fileOf(ref);
      if (!file) throw new Error(`Not a stored image: ${ref}`);
      return fs.readFile(file);
    },
    owns(ref) {
      return nameOf(ref) !== undefined;
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
