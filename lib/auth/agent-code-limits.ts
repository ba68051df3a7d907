import type { RequestContext } from '../http/endpoint.js';
import { enforceRateLimit } from '../rate-limit/enforce-rate-limit.js';

const FIFTEEN_MINUTES = 15 * 60;
/**
 * Every request that tells whether a code is good, sign-ups and verifications alike, per client
 * address: both answer that question, so they spend one budget and neither is a free oracle.
 */
const CODE_CHECKS_PER_ADDRESS = { limit: 20, windowSeconds: FIFTEEN_MINUTES };
/**
 * Wrong codes from all addresses together: codes are six digits, so however many addresses a
 * guesser has, the whole shop allows this many misses. Only misses count, so the holder of a valid
 * code is never turned away by others' spending.
 */
const WRONG_CODES = { limit: 300, windowSeconds: FIFTEEN_MINUTES };

/** Counts a sign-up or a verification against its address's budget, before anything else runs. */
export function countAgentCodeCheck(_input: unknown, ctx: RequestContext): Promise<void> {
  return enforceRateLimit({ key: `agent-code-checks:${ctx.clientNetwork}`, ...CODE_CHECKS_PER_ADDRESS });
}

/** Counts a code that was not usable against the shop-wide ceiling: 429 once the ceiling is passed. */
export function countWrongAgentCode(): Promise<void> {
  return enforceRateLimit({ key: 'agent-code-misses:all', ...WRONG_CODES });
}
