import { tooManyRequests } from '../rate-limit/enforce-rate-limit.js';

/**
 * Sign-ins one client address may have under way at once in this instance. Password checks run
 * one at a time on the hashing worker (bcrypt-worker.ts): without a ceiling, a burst from one
 * address queues there for seconds at cost 12, taking CPU all the while and holding back every
 * other address's sign-ins behind it. Past the ceiling a sign-in is refused at once, before any
 * statement or check, whatever e-mail it names, so the refusal says nothing about the account.
 */
const SIGN_INS_UNDER_WAY_PER_ADDRESS = 2;
/** About when a slot is free again: a check at cost 12 takes under a second. */
const RETRY_AFTER_SECONDS = 1;

const underWay = new Map<string, number>();

/** Runs `signIn` holding one of the address's slots, or throws 429 with `Retry-After` when none is free. */
export async function withSignInSlot<T>(address: string, signIn: () => Promise<T>): Promise<T> {
  const held = underWay.get(address) ?? 0;
  if (held >= SIGN_INS_UNDER_WAY_PER_ADDRESS) throw tooManyRequests(RETRY_AFTER_SECONDS);
  underWay.set(address, held + 1);
  try {
    return await signIn();
  } finally {
    const left = underWay.get(address)! - 1;
    if (left === 0) underWay.delete(address);
    else underWay.set(address, left);
  }
}
