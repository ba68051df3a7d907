import crypto from 'node:crypto';

/** Whether a caller's secret equals the expected one, compared in constant time (a missing one never does). */
export function secretMatches(given: string | string[] | undefined, expected: string): boolean {
  const a = Buffer.from(typeof given === 'string' ? given : '');
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
