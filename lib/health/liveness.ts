import { raw, type Reply } from '../http/reply.js';

/** Liveness: the function answers; no dependency is touched. */
export async function liveness(): Promise<Reply> {
  return raw({ status: 'ok', timestamp: new Date().toISOString() });
}
