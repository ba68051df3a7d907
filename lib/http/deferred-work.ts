import { waitUntil } from '@vercel/functions';
import { log } from '../log.js';

const running = new Set<Promise<void>>();

/**
 * Runs work that must finish although the response may already be on its way. On serverless
 * hosting the platform's `waitUntil` keeps the invocation alive until it settles (elsewhere it is
 * a no-op and the process itself keeps running).
 */
export function defer(name: string, task: () => Promise<void>): Promise<void> {
  const promise = task()
    .catch((error: unknown) => log.error('deferred work failed', { task: name, error }))
    .finally(() => running.delete(promise));
  running.add(promise);
  waitUntil(promise);
  return promise;
}

/** Resolves once all deferred work has settled (graceful shutdown). */
export async function settleDeferredWork(): Promise<void> {
  while (running.size > 0) await Promise.all([...running]);
}
