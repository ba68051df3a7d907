import { setTimeout as sleep } from 'node:timers/promises';
import { log } from '../log.js';
import type { Database, Transaction } from './client.js';
import { findPostgresError, RETRYABLE_CODES } from './postgres-error.js';

const ATTEMPTS = 4;
const BASE_DELAY_MS = 15;

/**
 * Runs `work` in a transaction, running it again (after a short random wait) when it loses a race
 * to a deadlock or a serialization failure. `work` must touch only the database, so that running
 * it again is safe; after the last attempt the error goes up and is answered 503.
 */
export async function inTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction(work);
    } catch (error) {
      const code = findPostgresError(error)?.code;
      if (!code || !RETRYABLE_CODES.has(code) || attempt >= ATTEMPTS) throw error;
      log.warn('transaction lost a race and runs again', { code, attempt });
      await sleep(BASE_DELAY_MS * 2 ** (attempt - 1) * (0.5 + Math.random()));
    }
  }
}
