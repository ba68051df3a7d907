import { config } from '../config.js';
import { bcryptCompare, bcryptHash } from './bcrypt-worker.js';

/**
 * `lane` names whose work this is (an account, a device, a client address): password work runs one
 * job at a time, lanes taking turns, so one lane's flood cannot hold back another's sign-in.
 */
export function hashPassword(password: string, lane?: string): Promise<string> {
  return bcryptHash(password, config().bcryptRounds, lane);
}

let dummyHash: Promise<string> | undefined;

/**
 * Whether the password matches the hash. Without a hash (no such account) the same work is spent
 * on a dummy one, so unknown e-mails cannot be told apart by timing.
 */
export async function passwordMatches(password: string, hash: string | undefined, lane?: string): Promise<boolean> {
  if (hash !== undefined) return bcryptCompare(password, hash, lane);
  dummyHash ??= bcryptHash('dummy-password-for-timing', config().bcryptRounds);
  await bcryptCompare(password, await dummyHash, lane);
  return false;
}
