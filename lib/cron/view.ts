import * as v from 'valibot';

const Count = v.pipe(v.number(), v.integer());

export const SweepView = v.object({
  channelPosts: v.object({ resumed: Count, retried: Count }),
  idempotencyKeysRemoved: Count,
  unattachedUploadsRemoved: Count,
  auditEntriesRemoved: Count,
  trashedListingsPurged: Count,
  leftBehindImagesRemoved: Count,
});

export type SweepView = v.InferOutput<typeof SweepView>;
