import { config } from '../config.js';
import { bcryptCompare, bcryptHash } from './bcrypt-worker.js';

export function hashPassword(password: string): Promise<string> {
  return bcryptHash(password, config().bcryptRounds);
}

let dummyHash: Promise<string> | undefined;

/**
 * Whether the password matches the hash. Without a hash (no such account) the same work is spent
 * on a dummy one, so unknown e-mails cannot be told apart by timing (D2).
 */
export async function passwordMatches(password: string, hash: string | undefined): Promise<boolean> {
  if (hash !== undefined) return bcryptCompare(password, hash);
  dummyHash ??= bcryptHash('dummy-password-for-timing', config().bcryptRounds);
  await bcryptCompare(password, await dummyHash);
  return false;
}
