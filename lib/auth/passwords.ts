import bcrypt from 'bcryptjs';
import { config } from '../config.js';

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, config().bcryptRounds);
}

export function passwordMatches(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real comparison, so unknown e-mails cannot be told apart by timing. */
export async function compareAgainstDummy(password: string): Promise<void> {
  dummyHash ??= bcrypt.hash('dummy-password-for-timing', config().bcryptRounds);
  await bcrypt.compare(password, await dummyHash);
}
