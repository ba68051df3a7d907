import { tooManyRequests } from '../rate-limit/enforce-rate-limit.js';

/**
 * Sign-ins one client network (an address; an IPv6 address by its /64) may have under way at once
 * in this instance. Password checks run one at a time on the hashing worker (bcrypt-worker.ts),
 * which holds few places for them: without a ceiling, a burst from one address would take them
 * all. Past the ceiling a sign-in is refused at once, before any statement or check, whatever
 * e-mail it names, so the refusal says nothing about the account.
 */
const SIGN_INS_UNDER_WAY_PER_NETWORK = 2;
/** About when a slot is free again: a check at cost 12 takes under a second. */
const RETRY_AFTER_SECONDS = 1;

const underWay = new Map<string, number>();

/** Runs `signIn` holding one of the network's slots, or throws 429 with `Retry-After` when none is free. */
export async function withSignInSlot<T>(network: string, signIn: () => Promise<T>): Promise<T> {
  const held = underWay.get(network) ?? 0;
  if (held >= SIGN_INS_UNDER_WAY_PER_NETWORK) throw tooManyRequests(RETRY_AFTER_SECONDS);
  underWay.set(network, held + 1);
  try {
    return await signIn();
  } finally {
    const left = underWay.get(network)! - 1;
    if (left === 0) underWay.delete(network);
    else underWay.set(network, left);
  }
}
