import { ok, type Reply } from '../http/reply.js';
import { currentImageStorage } from './storage.js';

/** `POST /api/uploads/signature`: what a client needs to upload photos straight to the image host. */
export async function createUploadSignature(): Promise<Reply> {
  const storage = await currentImageStorage();
  return ok(storage.directUploadTicket());
}
