import { runScript, type BenchContext } from '../harness.js';

/**
 * The image bytes of one storefront page, on the demo store's photos in an embedded database of
 * its own (bench/photo-bytes.ts, in its own process so that its environment is its own). The
 * figures are for information: the section has no target beyond running.
 */
export async function benchPhotoBytes(context: BenchContext): Promise<boolean> {
  runScript('bench/photo-bytes.ts', [], context.env);
  return true;
}
