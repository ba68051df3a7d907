import { config } from '../config.js';
import { servicePasswordWork, type PasswordWork } from './bcrypt-worker.js';

/**
 * `work` is where the job runs: a client's place in the queue of password work (withPasswordPlace),
 * or, with no client behind it (start-up, command-line tools), the service's own lane.
 */
export function hashPassword(password: string, work: PasswordWork = servicePasswordWork): Promise<string> {
  return work.hash(password, config().bcryptRounds);
}

let dummyHash: Promise<string> | undefined;

/**
 * Whether the password matches the hash. Without a hash (no such account) the same work is spent
 * on a dummy one, so unknown e-mails cannot be told apart by timing.
 */
export async function passwordMatches(password: string, hash: string | undefined, work: PasswordWork = servicePasswordWork): Promise<boolean> {
  if (hash !== undefined) return work.compare(password, hash);
  dummyHash ??= servicePasswordWork.hash('dummy-password-for-timing', config().bcryptRounds);
  await work.compare(password, await dummyHash);
  return false;
}
