import { closeDb, getDb } from '../lib/db/client.js';
import { backfillPhotos } from '../lib/listings/photo-backfill.js';

/**
 * `npm run images:backfill`: gives listing images stored before photos were described (or adopted
 * from the original service) their size, placeholder and renditions. Safe to stop and run again.
 */
async function main(): Promise<void> {
  try {
    console.log('Describing listing photos that have no size, placeholder or renditions yet...');
    const summary = await backfillPhotos(await getDb(), {
      onProgress: (progress) =>
        console.log(
          `  [${progress.listingsScanned}/${progress.listingsTotal} listings] ${progress.described} described, ${progress.alreadyDescribed} already described, ${progress.skipped} skipped`,
        ),
    });
    for (const { ref, reason } of summary.skippedRefs) console.log(`  skipped ${ref}: ${reason}`);
    console.log(
      `Done: ${summary.listingsScanned} listings, ${summary.described} photos described, ${summary.alreadyDescribed} already described, ${summary.skipped} skipped.`,
    );
  } finally {
    await closeDb();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
