import { raw, type HealthReply } from '../http/reply.js';

/** Liveness: the function answers; no dependency is touched. */
export async function liveness(): Promise<HealthReply> {
  return raw({ status: 'ok', timestamp: new Date().toISOString() });
}
