import type { PhotoRecord, PhotoRecords } from './photo-records.js';
import type { PhotoView } from './photo-view.js';
import { publicImageUrl } from './public-image-url.js';

/**
 * A photo without a record (stored before photos were described, until the backfill reaches it)
 * has no known size: its srcset is the stored image alone, with no width to describe it by.
 */
function srcsetOf(ref: string, record: PhotoRecord | undefined): string {
  if (!record) return publicImageUrl(ref);
  return [...record.renditions, { width: record.width, ref }].map((copy) => `${publicImageUrl(copy.ref)} ${copy.width}w`).join(', ');
}

export function photoPresenter(ref: string, records: PhotoRecords): PhotoView {
  const record = records.get(ref);
  return {
    url: publicImageUrl(ref),
    width: record?.width ?? null,
    height: record?.height ?? null,
    placeholder: record?.placeholder ?? null,
    srcset: srcsetOf(ref, record),
  };
}

/** A listing's photos, in the order of its images. */
export function photosPresenter(refs: readonly string[], records: PhotoRecords): PhotoView[] {
  return refs.map((ref) => photoPresenter(ref, records));
}
