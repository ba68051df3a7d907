import { getDb } from '../db/client.js';
import { ok, type DataReply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import { enforceRateLimit } from '../rate-limit/enforce-rate-limit.js';
import { recordIssuedUpload } from './direct-upload-records.js';
import { currentImageStorage } from './storage.js';
import type { UploadTicketView } from './upload-ticket-view.js';

/** Upload tickets are limited per user; each makes one image. */
const TICKETS_PER_HOUR = { limit: 60, windowSeconds: 60 * 60 };

/** The upload ticket endpoint's rate limit, counted before a ticket is made. */
export const countUploadTicket = (_input: unknown, { user }: RequestContext): Promise<void> =>
  enforceRateLimit({ key: `upload-ticket:${user!.id}`, ...TICKETS_PER_HOUR });

/**
 * `POST /api/uploads/signature`: what a client needs to upload one photo straight to the image
 * host. The ticket is recorded, so an image no listing takes is removed after a day.
 */
export async function createUploadSignature(_input: unknown, { user }: RequestContext<'token'>): Promise<DataReply<UploadTicketView>> {
  const storage = await currentImageStorage();
  const ticket = storage.directUploadTicket();
  await recordIssuedUpload(await getDb(), ticket.publicId, user.id);
  return ok(ticket);
}
