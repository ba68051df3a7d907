import { sql } from 'drizzle-orm/sql/sql';
import { enforceRateLimits, limitFailures } from '../rate-limit/enforce-rate-limit.js';
import { networkIsFamiliar } from './device-tokens.js';

/*
 * Every limit here is counted by its handler, not before it: which limit a sign-in falls under
 * hangs on whether its device token is live for the account, and only a wrong password counts
 * against a device or an account's current password. The endpoints name these limiters in their
 * `rateLimit`, so their 429 is declared with them.
 */

const FIFTEEN_MINUTES = 15 * 60;
/** Sign-in attempts per e-mail and client address. */
const LOGIN_LIMIT = { limit: 10, windowSeconds: FIFTEEN_MINUTES };
/**
 * Sign-in attempts per account, whatever the address, from clients without the account's device
 * token and from networks the account has not signed in from since its last password change.
 */
const LOGIN_ACCOUNT_LIMIT = { limit: 50, windowSeconds: FIFTEEN_MINUTES };
/** Sign-in attempts per address across every e-mail, so fresh e-mails do not buy fresh guesses. */
const LOGIN_ADDRESS_LIMIT = { limit: 30, windowSeconds: FIFTEEN_MINUTES };
/** Wrong passwords per device token: a device's own limit, whatever strangers try. */
const DEVICE_FAILURE_LIMIT = { limit: 10, windowSeconds: FIFTEEN_MINUTES };
/**
 * Wrong current passwords per account: each is a guess at the password, so it is limited like a
 * failed sign-in, and a stolen token cannot buy unlimited guesses.
 */
const CURRENT_PASSWORD_FAILURES = { limit: 5, windowSeconds: FIFTEEN_MINUTES };

/**
 * Counts a sign-in without a live device token, in one statement. The address's ceiling comes
 * first, so a flood from one address is refused before it writes a counter for each e-mail it
 * names. The account-wide ceiling counts only networks the account has not signed in from:
 * strangers who spend it do not lock its owner out at home or at work, where the owner signed in before.
 */
export function countUntrustedSignIn(email: string, network: string): Promise<void> {
  return enforceRateLimits(
    { key: `login-address:${network}`, ...LOGIN_ADDRESS_LIMIT },
    { key: `login:${email}:${network}`, ...LOGIN_LIMIT },
    { key: `login-account:${email}`, ...LOGIN_ACCOUNT_LIMIT, onlyWhen: sql`not ${networkIsFamiliar(email, network)}` },
  );
}

/** Checks a password under the device's own limit of wrong ones; answers whether it matched. */
export function limitDeviceFailures(deviceId: string, check: () => Promise<boolean>): Promise<boolean> {
  return limitFailures({ key: `login-device:${deviceId}`, ...DEVICE_FAILURE_LIMIT }, check);
}

/** Checks an account's current password under its limit of wrong ones; answers whether it matched. */
export function limitCurrentPasswordFailures(accountId: string, check: () => Promise<boolean>): Promise<boolean> {
  return limitFailures({ key: `current-password:${accountId}`, ...CURRENT_PASSWORD_FAILURES }, check);
}
