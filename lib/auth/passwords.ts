import bcrypt from 'bcryptjs';
import { config } from '../config.js';
import { createProcessingSlots } from '../processing-slots.js';

/**
 * A password hash or check takes a core for a fraction of a second (bcrypt cost 12): one at a time
 * per instance, so a burst of sign-ins waits its turn instead of starving every other request.
 */
const bcryptSlots = createProcessingSlots(1);

export function hashPassword(password: string): Promise<string> {
  return bcryptSlots.run(() => bcrypt.hash(password, config().bcryptRounds));
}

let dummyHash: Promise<string> | undefined;

/**
 * Whether the password matches the hash. Without a hash (no such account) the same work is spent
 * on a dummy one, so unknown e-mails cannot be told apart by timing (D2).
 */
export async function passwordMatches(password: string, hash: string | undefined): Promise<boolean> {
  if (hash !== undefined) return bcryptSlots.run(() => bcrypt.compare(password, hash));
  dummyHash ??= bcrypt.hash('dummy-password-for-timing', config().bcryptRounds);
  const dummy = await dummyHash;
  await bcryptSlots.run(() => bcrypt.compare(password, dummy));
  return false;
}
