import { sql, type SQL } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { photos, type PhotoRendition } from '../db/schema.js';

/** A stored photo's reference with what its answers show beside it. */
export interface PhotoRecord {
  ref: string;
  width: number;
  height: number;
  placeholder: string;
  renditions: PhotoRendition[];
}

/** Photo records by reference; a reference stored before photos were described has none. */
export type PhotoRecords = ReadonlyMap<string, PhotoRecord>;

export function photoRecordsByRef(records: readonly PhotoRecord[]): PhotoRecords {
  return new Map(records.map((record) => [record.ref, record]));
}

/** Keeps the records of photos a write stores, in that write's transaction; describing one again replaces its record. */
export async function recordPhotos(executor: Executor, records: readonly PhotoRecord[]): Promise<void> {
  if (records.length === 0) return;
  await executor
    .insert(photos)
    .values(records.map(({ ref, width, height, placeholder, renditions }) => ({ ref, width, height, placeholder, renditions })))
    .onConflictDoUpdate({
      target: photos.ref,
      set: { width: sql`excluded.width`, height: sql`excluded.height`, placeholder: sql`excluded.placeholder`, renditions: sql`excluded.renditions`, describedAt: sql`now()` },
    });
}

/**
 * The records of the references in `refs` (an SQL text array, such as a listing's images), as a
 * JSON array column: for a statement that reads them with the listing, in the same round trip.
 */
export function photoRecordsOf(refs: SQL): SQL<PhotoRecord[]> {
  return sql<PhotoRecord[]>`(select coalesce(json_agg(json_build_object('ref', ${photos.ref}, 'width', ${photos.width}, 'height', ${photos.height},
    'placeholder', ${photos.placeholder}, 'renditions', ${photos.renditions})), '[]'::json) from ${photos} where ${photos.ref} = any(${refs}))`;
}

/** The records of these references in one primary-key lookup (a page's images are read as one batch). */
export async function findPhotoRecords(executor: Executor, refs: readonly string[]): Promise<PhotoRecords> {
  if (refs.length === 0) return new Map();
  const rows = await executor
    .select({ ref: photos.ref, width: photos.width, height: photos.height, placeholder: photos.placeholder, renditions: photos.renditions })
    .from(photos)
    .where(sql`${photos.ref} = any(${sql.param([...new Set(refs)])}::text[])`);
  return photoRecordsByRef(rows);
}

export async function deletePhotoRecords(executor: Executor, refs: readonly string[]): Promise<void> {
  if (refs.length === 0) return;
  await executor.delete(photos).where(sql`${photos.ref} = any(${sql.param([...refs])}::text[])`);
}
