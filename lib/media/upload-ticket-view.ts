import * as v from 'valibot';

export const UploadTicketView = v.object({
  uploadUrl: v.pipe(v.string(), v.url()),
  cloudName: v.string(),
  apiKey: v.string(),
  publicId: v.string(),
  timestamp: v.pipe(v.number(), v.integer()),
  expiresAt: v.pipe(v.string(), v.isoTimestamp()),
  folder: v.string(),
  transformation: v.string(),
  format: v.string(),
  signature: v.string(),
  fields: v.object({
    api_key: v.string(),
    public_id: v.string(),
    timestamp: v.pipe(v.number(), v.integer()),
    transformation: v.string(),
    format: v.string(),
    signature: v.string(),
  }),
});

export type UploadTicketView = v.InferOutput<typeof UploadTicketView>;
